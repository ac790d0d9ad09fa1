import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, upload } from '../library/helpers.ts'
import { readStream } from '../pipeline/helpers.ts'

/**
 * The whole path for "same meaning": import, run the local pipeline (the sentence encoder in stage 3,
 * related posts and near-identical pairs in stage 4), then the post's page lists the reworded copy.
 */
const TEXTS: Record<string, string> = {
  '11': 'The X Chat API is now available. Build experiences right in X Chat today.',
  '12': 'X Chat API is now available! Build experiences right inside X Chat, today',
  '13': 'Our team shipped a faster build cache for monorepos with remote execution',
  '14': 'Sourdough starter tips: feed it twice a day and keep it somewhere warm',
  '15': 'A thread on the history of the printing press and the spread of literacy',
}

let t: TestServer
let admin: Client
const ids = new Map<string, number>()
beforeAll(async () => {
  t = await startTestServer()
  admin = await signedIn(t, 'admin')
  expect((await admin.put('/api/settings', { fetchMedia: false, autoRunAfterImport: false })).status).toBe(200)
  const bookmarks = Object.entries(TEXTS).map(([postId, text], i) => ({
    postId, text, authorHandle: `author${i}`, authorName: 'A', postCreatedAt: '2026-01-01T00:00:00.000Z', urls: [], media: [],
    engagement: { likes: null, reposts: null, replies: null, quotes: null, bookmarks: null, views: null }, lang: 'en', conversationId: null,
    inReplyToPostId: null, quoted: null, source: 'bookmark', rawJson: '{}', importedAt: '2026-01-01T00:00:00.000Z',
  }))
  await upload(admin, { name: 's.json', content: JSON.stringify({ format: 'sheaf-export', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', categories: [], bookmarks }) })
  for (const b of await allBookmarks(admin)) ids.set(b.postId, b.id)
  expect((await admin.post('/api/categorize', {})).status).toBe(200)
  await readStream(admin)
}, 240_000)
afterAll(() => t?.close())

const dups = async (postId: string) =>
  Object.fromEntries(((await admin.get(`/api/bookmarks/${ids.get(postId)}`)).body.duplicates as Array<{ postId: string; reasons: string[] }>).map((d) => [d.postId, d.reasons]))

describe('stage 4 finds near-identical meaning', () => {
  it('the reworded copy is listed as same_meaning, both ways; the other posts have no duplicates', async () => {
    expect(await dups('11')).toEqual({ 12: ['same_meaning'] })
    expect(await dups('12')).toEqual({ 11: ['same_meaning'] })
    for (const p of ['13', '14', '15']) expect(await dups(p)).toEqual({})
  })
})
