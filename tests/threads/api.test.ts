import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientsByRole, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, upload } from '../library/helpers.ts'
import { docFile, type DocPost } from './sheaf-doc.ts'

const at = (day: number, minute = 0) => new Date(Date.UTC(2025, 2, day, 9, minute)).toISOString()

/**
 * ada's thread 100 → 101 → 102, with a branch 100 → 103 (posted after 101) → 104; bo replies to 101 and
 * quotes 100; cy quotes a post the library does not hold; ADA (another case) continues 102 with 105;
 * an unnamed author's reply to another unnamed author's post is not a thread.
 */
const POSTS: DocPost[] = [
  { postId: '100', author: 'ada', at: at(1, 0), text: 'Root: how we store bookmarks in SQLite' },
  { postId: '101', author: 'ada', at: at(1, 1), replyTo: '100', text: 'Part two: the write-ahead log' },
  { postId: '102', author: 'ada', at: at(1, 2), replyTo: '101', text: 'Part three: checkpoints and zebras' },
  { postId: '103', author: 'ada', at: at(1, 5), replyTo: '100', text: 'A second branch from the root' },
  { postId: '104', author: 'ada', at: at(1, 6), replyTo: '103', text: 'The branch goes on' },
  { postId: '105', author: 'ADA', at: at(1, 3), replyTo: '102', text: 'Part four, handle in capitals' },
  { postId: '200', author: 'bo', at: at(2), replyTo: '101', text: 'Nice thread, ada!', quotes: { postId: '100', author: 'ada', text: 'Root: how we store bookmarks in SQLite' } },
  { postId: '300', author: 'cy', at: at(3), text: 'Quoting something not saved here', quotes: { postId: '999', author: 'zed', text: 'elsewhere' } },
  { postId: '400', author: 'unknown', at: at(4), text: 'Someone unnamed' },
  { postId: '401', author: 'unknown', at: at(4, 1), replyTo: '400', text: 'Someone else unnamed' },
]
const READING_ORDER = ['100', '101', '102', '105', '103', '104']

describe('threads through the API', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  let byPost: Map<string, any>
  beforeAll(async () => {
    t = await startTestServer()
    c = await clientsByRole(t)
    const res = await upload(c.admin, docFile('threads.json', POSTS))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    byPost = new Map((await allBookmarks(c.admin)).map((b) => [b.postId, b]))
  })
  afterAll(async () => t?.close())

  const idOf = (postId: string) => byPost.get(postId).id

  it('reads a thread depth first, branches in the order posted, for any role', async () => {
    const res = await c.viewer.get(`/api/bookmarks/${idOf('102')}`)
    expect(res.status).toBe(200)
    expect(res.body.thread).toEqual({
      rootId: idOf('100'),
      position: 3,
      posts: READING_ORDER.map((p) => ({ id: idOf(p), text: POSTS.find((x) => x.postId === p)!.text, postCreatedAt: POSTS.find((x) => x.postId === p)!.at })),
    })
    expect(READING_ORDER.map((p) => [byPost.get(p).threadPosition, byPost.get(p).threadSize])).toEqual(READING_ORDER.map((_, i) => [i + 1, 6]))
  })

  it('replies to other people and quotes stay separate posts, linked when the other post is saved', async () => {
    const bo = (await c.member.get(`/api/bookmarks/${idOf('200')}`)).body
    expect(bo.thread).toBeNull()
    expect(bo.threadSize).toBe(1)
    expect(bo.inReplyTo).toMatchObject({ id: idOf('101'), postId: '101', authorHandle: 'ada', text: 'Part two: the write-ahead log' })
    expect(bo.quotes).toMatchObject({ id: idOf('100'), postId: '100' })
    const cy = (await c.member.get(`/api/bookmarks/${idOf('300')}`)).body
    expect(cy.quotes).toBeNull()
    expect(cy.quoted.postId).toBe('999')
    expect(cy.inReplyTo).toBeNull()
  })

  it('two posts whose authors the export did not name are not one person\'s thread', async () => {
    const d = (await c.viewer.get(`/api/bookmarks/${idOf('401')}`)).body
    expect(d.thread).toBeNull()
    expect(d.inReplyTo).toMatchObject({ postId: '400' })
  })

  it('?threads=collapsed shows one card per thread, the root; a bad value is a 400', async () => {
    const all = (await c.viewer.get('/api/bookmarks?limit=100')).body
    const collapsed = (await c.viewer.get('/api/bookmarks?limit=100&threads=collapsed')).body
    expect(all.total).toBe(POSTS.length)
    expect(collapsed.total).toBe(POSTS.length - READING_ORDER.length + 1)
    expect(collapsed.bookmarks.map((b: any) => b.postId).sort()).toEqual(['100', '200', '300', '400', '401'])
    expect(collapsed.bookmarks.find((b: any) => b.postId === '100').threadSize).toBe(6)
    expect((await c.viewer.get('/api/bookmarks?threads=all')).body.total).toBe(POSTS.length)
    // words in the third part find the thread's card, the root
    const withWords = (await c.viewer.get('/api/bookmarks?threads=collapsed&q=zebras')).body
    expect(withWords.bookmarks.map((b: any) => b.postId)).toEqual(['100'])
    expect((await c.viewer.get('/api/bookmarks?threads=collapsed&author=bo')).body.bookmarks.map((b: any) => b.postId)).toEqual(['200'])
    expect((await c.viewer.get('/api/bookmarks?threads=collapsed&q=zebras&sort=oldest&page=2&limit=1')).body).toMatchObject({ total: 1, bookmarks: [] })
    const bad = await c.viewer.get('/api/bookmarks?threads=folded')
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('threads') })
  })

  it('search finds a thread by words in any part and links to the part that matched', async () => {
    const res = await c.member.get('/api/search/ai?q=zebras')
    expect(res.status).toBe(200)
    const hit = res.body.results[0].bookmark
    expect(hit).toMatchObject({ id: idOf('102'), threadPosition: 3, threadSize: 6 })
  })

  it('the JSON export keeps the thread together in reading order, each part with its place', async () => {
    const res = await fetch(`${c.member.base}/api/export?format=json`, { headers: { cookie: c.member.cookie! } })
    const doc: any = await res.json()
    const ids = doc.bookmarks.map((b: any) => b.postId)
    const start = ids.indexOf('100')
    expect(ids.slice(start, start + READING_ORDER.length)).toEqual(READING_ORDER)
    expect(ids).toHaveLength(POSTS.length)
    expect(doc.bookmarks[start + 2].thread).toEqual({ rootPostId: '100', position: 3, size: 6 })
    expect(doc.bookmarks.find((b: any) => b.postId === '200').thread).toBeNull()
  })

  it('the Markdown vault puts a thread\'s notes in one folder, each saying its part and linking the next', async () => {
    const res = await fetch(`${c.member.base}/api/export?format=markdown`, { headers: { cookie: c.member.cookie! } })
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    const notes = Object.entries(files).filter(([p]) => / ada (100|101|102|103|104)\.md$| ADA 105\.md$/.test(p))
    expect(notes).toHaveLength(6)
    expect(new Set(notes.map(([p]) => p.slice(0, p.lastIndexOf('/')))).size).toBe(1)
    const third = strFromU8(notes.find(([p]) => p.endsWith(' 102.md'))![1])
    expect(third).toContain('threadPart: 3\nthreadParts: 6\n')
    expect(third).toMatch(/Part 3 of 6 \(previous: \[\[2025-03-01 ada 101\]\] · next: \[\[2025-03-01 ADA 105\]\]\)/)
  })

  it('merging a part into another post takes it out of its thread; the rest is read again', async () => {
    // 104, the end of the branch, is folded into cy's post: the branch is then 103 alone
    const res = await c.member.post(`/api/bookmarks/${idOf('300')}/merge`, { otherId: idOf('104') })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const root = (await c.viewer.get(`/api/bookmarks/${idOf('100')}`)).body.thread
    expect(root.posts.map((p: any) => p.id)).toEqual(['100', '101', '102', '105', '103'].map(idOf))
    expect(res.body.thread).toBeNull()
  })

  it('deleting the root makes its replies threads of their own, read from their new roots', async () => {
    expect((await c.member.delete(`/api/bookmarks/${idOf('100')}`)).status).toBe(204)
    const a = (await c.viewer.get(`/api/bookmarks/${idOf('105')}`)).body.thread
    expect(a.posts.map((p: any) => p.id)).toEqual(['101', '102', '105'].map(idOf))
    expect(a).toMatchObject({ rootId: idOf('101'), position: 3 })
    // 103's parent is gone and its reply was merged away: a post alone is no thread
    expect((await c.viewer.get(`/api/bookmarks/${idOf('103')}`)).body.thread).toBeNull()
  })
})
