import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedIn, type Client } from '../support/client.ts'
import { hasSharedFixtures, NEEDS_FIXTURES, sharedFixture } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { describeIf } from '../support/skip.ts'
import { allBookmarks, upload } from '../library/helpers.ts'
import { docFile } from './sheaf-doc.ts'
import { importFile, readStream } from '../pipeline/helpers.ts'

/** Stage 4 decides a thread's categories on the whole thread, so its parts agree. */
describeIf(hasSharedFixtures, NEEDS_FIXTURES)('the pipeline reads a thread as one piece', () => {
  let t: TestServer
  let admin: Client
  let list: any[]

  beforeAll(async () => {
    t = await startTestServer()
    admin = await signedIn(t, 'admin')
    expect((await admin.put('/api/settings', { fetchMedia: false, autoRunAfterImport: false })).status).toBe(200)
    await importFile(admin, sharedFixture('exports/graphql/twscrape_raw_tweet_details.json'))
    await importFile(admin, sharedFixture('exports/graphql/twscrape_raw_user_media.json'))
    expect((await admin.post('/api/categorize', {})).status).toBe(200)
    await readStream(admin)
    list = await allBookmarks(admin)
  }, 240_000)
  afterAll(async () => t?.close())

  it('every part of a thread ends with the same categories, and they are not empty', () => {
    const byRoot = new Map<number, any[]>()
    for (const b of list.filter((x) => x.threadSize > 1)) {
      const root = b.threadPosition === 1 ? b.id : null
      if (root !== null) byRoot.set(root, [])
    }
    expect(byRoot.size).toBeGreaterThanOrEqual(2)
    return Promise.all([...byRoot.keys()].map(async (root) => {
      const { body } = await admin.get(`/api/bookmarks/${root}`)
      const parts = body.thread.posts.map((p: any) => list.find((b) => b.id === p.id))
      const slugs = parts.map((p: any) => p.categories.map((c: any) => c.slug).sort().join(','))
      expect(slugs[0], `thread ${root}`).not.toBe('')
      expect(new Set(slugs).size, `thread ${root}: ${slugs.join(' | ')}`).toBe(1)
    }))
  })

  it('posts outside a thread keep categories of their own', () => {
    const single = list.filter((b) => b.threadSize === 1)
    expect(new Set(single.map((b) => b.categories.map((c: any) => c.slug).sort().join(','))).size).toBeGreaterThan(1)
  })
})

describe('a thread whose parts, read alone, are about different things', () => {
  let t: TestServer
  let admin: Client
  beforeAll(async () => {
    t = await startTestServer()
    admin = await signedIn(t, 'admin')
    expect((await admin.put('/api/settings', { fetchMedia: false, autoRunAfterImport: false })).status).toBe(200)
    const at = (m: number) => new Date(Date.UTC(2025, 0, 1, 12, m)).toISOString()
    const res = await upload(admin, docFile('thread.json', [
      { postId: '9001', author: 'ada', at: at(0), text: 'A thread on training a neural network: we fine-tuned a large language model on our support tickets with PyTorch and LoRA adapters.' },
      { postId: '9002', author: 'ada', at: at(1), replyTo: '9001', text: 'Our startup raised a seed round from investors last month; revenue and customers are growing, and we are hiring sales people.' },
      { postId: '9003', author: 'ada', at: at(2), replyTo: '9002', text: 'Funny meme of the week: my cat sat on the keyboard during the demo and everybody laughed 😂' },
      // the same three texts, not a thread (three authors), for comparison
      { postId: '9101', author: 'bo', at: at(3), text: 'A thread on training a neural network: we fine-tuned a large language model on our support tickets with PyTorch and LoRA adapters.' },
      { postId: '9102', author: 'cy', at: at(4), replyTo: '9101', text: 'Our startup raised a seed round from investors last month; revenue and customers are growing, and we are hiring sales people.' },
      { postId: '9103', author: 'di', at: at(5), replyTo: '9102', text: 'Funny meme of the week: my cat sat on the keyboard during the demo and everybody laughed 😂' },
    ]))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await admin.post('/api/categorize', {})).status).toBe(200)
    await readStream(admin)
  }, 240_000)
  afterAll(async () => t?.close())

  const slugsOf = async (postIds: string[]) => {
    const list = await allBookmarks(admin)
    return postIds.map((id) => list.find((b) => b.postId === id).categories.map((c: any) => c.slug).sort().join(','))
  }

  it('the thread\'s parts agree, where the same texts by three people do not', async () => {
    const thread = await slugsOf(['9001', '9002', '9003'])
    const apart = await slugsOf(['9101', '9102', '9103'])
    expect(new Set(apart).size, apart.join(' | ')).toBeGreaterThan(1)
    expect(thread[0]).not.toBe('')
    expect(new Set(thread).size, thread.join(' | ')).toBe(1)
  })
})
