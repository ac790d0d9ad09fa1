import { afterEach, beforeEach, expect, it } from 'vitest'
import { clientsByRole, type Client } from '../support/client.ts'
import { hasSharedFixtures, NEEDS_FIXTURES, sharedFixture } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { describeIf } from '../support/skip.ts'
import { allBookmarks, upload } from '../library/helpers.ts'
import { archivePosts, archiveTweets, expectedThreads, graphqlPosts, type RawPost } from './walk.ts'

const TWEET_DETAIL = sharedFixture('exports/graphql/twscrape_raw_tweet_details.json')
const USER_MEDIA = sharedFixture('exports/graphql/twscrape_raw_user_media.json')
const ARCHIVE = sharedFixture('exports/archive/alrocar_x/tweets.js')
const OWNER = 'alrocar'

const archiveFile = (rows: unknown[]) => ({ name: 'tweets.js', content: `window.YTD.tweets.part0 = ${JSON.stringify(rows)}` })

/** The library's threads, as post ids in reading order, read from each thread's detail. */
async function libraryThreads(c: Client): Promise<{ threads: string[][]; list: any[] }> {
  const list = await allBookmarks(c)
  const postIdOf = new Map(list.map((b) => [b.id, b.postId]))
  const threads: string[][] = []
  for (const root of list.filter((b) => b.threadSize > 1 && b.threadPosition === 1)) {
    const { body } = await c.get(`/api/bookmarks/${root.id}`)
    expect(body.thread.rootId).toBe(root.id)
    expect(body.thread.position).toBe(1)
    expect(body.thread.posts).toHaveLength(root.threadSize)
    threads.push(body.thread.posts.map((p: any) => postIdOf.get(p.id)))
  }
  return { threads, list }
}

/** The walk's threads over the posts the library holds (quoted posts inside a capture are not saved posts). */
const expectedIn = (raw: Map<string, RawPost>, saved: Set<string>): string[][] =>
  expectedThreads(new Map([...raw].filter(([id]) => saved.has(id))))

const sorted = (threads: string[][]) => [...threads].sort((a, b) => a[0].localeCompare(b[0]))

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('threads assembled from real exports, checked against a walk of the file', () => {
  let t: TestServer
  let admin: Client
  beforeEach(async () => {
    t = await startTestServer()
    admin = (await clientsByRole(t)).admin
  })
  afterEach(async () => t?.close())

  it('a TweetDetail capture: the conversation\'s own-author chain is one thread in reading order', async () => {
    expect((await upload(admin, TWEET_DETAIL)).status).toBe(200)
    const { threads, list } = await libraryThreads(admin)
    const want = expectedIn(graphqlPosts(TWEET_DETAIL), new Set(list.map((b) => b.postId)))
    expect(want.length).toBeGreaterThan(0)
    expect(sorted(threads)).toEqual(sorted(want))
    // every other post (replies to other people) stands alone
    const parts = new Set(want.flat())
    expect(list.filter((b) => !parts.has(b.postId)).every((b) => b.threadSize === 1 && b.threadPosition === 1)).toBe(true)
    // a middle part's detail names its place and the whole thread
    const [thread] = want
    const middle = list.find((b) => b.postId === thread[2])
    const detail = (await admin.get(`/api/bookmarks/${middle.id}`)).body
    expect(detail.thread.position).toBe(3)
    expect(detail.thread.posts.map((p: any) => p.text)).toEqual(thread.map((id) => list.find((b) => b.postId === id).text))
    expect(detail.inReplyTo.postId).toBe(thread[1])
  })

  it('two TweetDetail-style captures in a row: threads of both files, nothing else joined', async () => {
    expect((await upload(admin, TWEET_DETAIL)).status).toBe(200)
    expect((await upload(admin, USER_MEDIA)).status).toBe(200)
    const { threads, list } = await libraryThreads(admin)
    const raw = new Map([...graphqlPosts(TWEET_DETAIL), ...graphqlPosts(USER_MEDIA)])
    expect(sorted(threads)).toEqual(sorted(expectedIn(raw, new Set(list.map((b) => b.postId)))))
  })

  it('the X archive: every reply chain, counts, order, and the collapsed list', async () => {
    const rows = archiveTweets(ARCHIVE)
    expect((await upload(admin, archiveFile(rows))).status).toBe(200)
    const { threads, list } = await libraryThreads(admin)
    const want = expectedThreads(archivePosts(rows, OWNER))
    expect(threads.length).toBe(want.length)
    expect(threads.flat().length).toBe(want.flat().length)
    expect(sorted(threads)).toEqual(sorted(want))
    const collapsed = (await admin.get('/api/bookmarks?threads=collapsed&limit=1')).body.total
    expect(collapsed).toBe(list.length - want.flat().length + want.length)
    const collapsedList = await allBookmarks(admin, 'threads=collapsed')
    expect(collapsedList.filter((b) => b.threadSize > 1).every((b) => b.threadPosition === 1)).toBe(true)
  }, 60_000)

  it('across files: a thread completes when its missing parts arrive in a later import', async () => {
    const rows = archiveTweets(ARCHIVE)
    const first = rows.filter((_, i) => i % 2 === 0)
    const second = rows.filter((_, i) => i % 2 === 1)
    expect((await upload(admin, archiveFile(first))).status).toBe(200)
    const early = await libraryThreads(admin)
    expect(sorted(early.threads)).toEqual(sorted(expectedThreads(archivePosts(first, OWNER))))
    expect((await upload(admin, archiveFile(second))).status).toBe(200)
    const whole = await libraryThreads(admin)
    const want = expectedThreads(archivePosts(rows, OWNER))
    expect(whole.threads.length).toBeLessThan(early.threads.length + want.length)
    expect(sorted(whole.threads)).toEqual(sorted(want))
  }, 90_000)

  it('deleting a middle part splits its thread; each piece is read again from its own root', async () => {
    const rows = archiveTweets(ARCHIVE)
    expect((await upload(admin, archiveFile(rows))).status).toBe(200)
    const want = expectedThreads(archivePosts(rows, OWNER))
    const long = want.find((th) => th.length >= 5)!
    const list = await allBookmarks(admin)
    const gone = list.find((b) => b.postId === long[2])
    expect((await admin.delete(`/api/bookmarks/${gone.id}`)).status).toBe(204)
    const after = await libraryThreads(admin)
    const remaining = archivePosts(rows.filter((r) => r.tweet.id_str !== long[2]), OWNER)
    expect(sorted(after.threads)).toEqual(sorted(expectedThreads(remaining)))
  }, 60_000)
})
