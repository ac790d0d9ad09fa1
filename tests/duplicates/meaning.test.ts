import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadSentenceEncoder } from '../../src-main/ai/local/sentence-encoder.ts'
import { dot } from '../../src-main/ai/local/index.ts'
import { nearIdenticalPairs, NEAR_IDENTICAL_COSINE } from '../../src-main/duplicates/index.ts'
import { replaceMeaningPairs } from '../../src-main/store/queries/post-keys.ts'
import { transaction } from '../../src-main/store/db.ts'
import { writeEmbedding } from '../../src-main/store/queries/embeddings.ts'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, upload } from '../library/helpers.ts'

/**
 * Near-identical meaning with the real sentence encoder, the way stage 4 does it: the posts' stored
 * vectors, their related candidates, then pairs written as 'meaning' keys and shown as same_meaning.
 */
const TEXTS: Record<string, string> = {
  '1': 'The X Chat API is now available. Build experiences right in X Chat today.',
  '2': 'X Chat API is now available! Build experiences right inside X Chat, today',
  '3': 'X Chat API & Chat XDK are live! Free on pay-per-use for a limited time',
  '4': '【情報初解禁✨】『機動戦士ガンダム #水星の魔女』より、「#ガンダム・キャリバーン」の #ガンプラ がHGシリーズにて発売!',
  '5': '【情報初解禁✨】『機動戦士ガンダム #水星の魔女』画集の発売が決定しました！ポスターや雑誌、各種コラボイラストなど',
}

let t: TestServer
let admin: Client
let encoder: Awaited<ReturnType<typeof loadSentenceEncoder>>
let vectorOf: Map<string, Float32Array>
const ids = new Map<string, number>()
beforeAll(async () => {
  // Encoded before the server starts: the model holds this thread for seconds, and a keep-alive socket
  // left idle meanwhile can be closed by both ends at once (ECONNRESET) when the test resumes.
  encoder = await loadSentenceEncoder()
  const texts = Object.entries(TEXTS)
  const encoded = await encoder.encode(texts.map(([, text]) => text))
  vectorOf = new Map(texts.map(([postId], i) => [postId, encoded[i]]))
  t = await startTestServer()
  admin = await signedIn(t, 'admin')
  const bookmarks = Object.entries(TEXTS).map(([postId, text], i) => ({
    postId, text, authorHandle: `author${i}`, authorName: 'A', postCreatedAt: '2026-01-01T00:00:00.000Z', urls: [], media: [],
    engagement: { likes: null, reposts: null, replies: null, quotes: null, bookmarks: null, views: null }, lang: null, conversationId: null,
    inReplyToPostId: null, quoted: null, source: 'bookmark', rawJson: '{}', importedAt: '2026-01-01T00:00:00.000Z',
  }))
  await upload(admin, { name: 's.json', content: JSON.stringify({ format: 'sheaf-export', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', categories: [], bookmarks }) })
  for (const b of await allBookmarks(admin)) ids.set(b.postId, b.id)
})
afterAll(() => t.close())

const reasonsBetween = async (a: string, b: string) =>
  ((await admin.get(`/api/bookmarks/${ids.get(a)}`)).body.duplicates as Array<{ postId: string; reasons: string[] }>).find((d) => d.postId === b)?.reasons ?? []

describe('same meaning from the sentence vectors', () => {
  it('a reworded copy is same_meaning; a related post and two posts the encoder cannot read are not', async () => {
    const posts = [...ids].map(([postId, id]) => ({ id, text: TEXTS[postId] }))
    const vectors = [...ids.keys()].map((postId) => vectorOf.get(postId)!)
    const db = t.sheaf.db
    posts.forEach((p, i) => writeEmbedding(db, { bookmarkId: p.id, model: encoder.model, vector: vectors[i], contentHash: 'x' }))
    // one post per batch, the others as its related posts, nearest first (as the related index answers):
    // the candidates' vectors and texts are read from the database, as for candidates outside a stage-4 batch
    const related = posts.map((p, i) => posts.map((q, j) => ({ id: q.id, s: dot(vectors[i], vectors[j]) }))
      .filter((q) => q.id !== p.id).sort((a, b) => b.s - a.s).map((q) => q.id))
    const pairs = posts.flatMap((p, i) => nearIdenticalPairs(db, encoder.model, [p], [related[i]], new Map([[p.id, vectors[i]]])))
    transaction(db, () => replaceMeaningPairs(db, posts.map((p) => p.id), pairs))
    expect(NEAR_IDENTICAL_COSINE).toBe(0.92)
    expect(await reasonsBetween('1', '2')).toEqual(['same_meaning'])
    expect(await reasonsBetween('2', '1')).toEqual(['same_meaning'])
    expect(await reasonsBetween('1', '3')).toEqual([])
    expect(await reasonsBetween('4', '5')).toEqual([])

    // the same vector twice: a pair for English text, none for text the encoder cannot read
    const same = vectors[0]
    const [en1, en2, ja1, ja2] = [ids.get('1')!, ids.get('3')!, ids.get('4')!, ids.get('5')!]
    for (const id of [en2, ja2]) writeEmbedding(db, { bookmarkId: id, model: encoder.model, vector: same, contentHash: 'x' })
    expect(nearIdenticalPairs(db, encoder.model, [{ id: en1, text: TEXTS['1'] }], [[en2]], new Map([[en1, same]]))).toEqual([[en1, en2]])
    expect(nearIdenticalPairs(db, encoder.model, [{ id: ja1, text: TEXTS['4'] }], [[ja2]], new Map([[ja1, same]]))).toEqual([])

    // a re-analysis that no longer finds the pair drops it
    transaction(db, () => replaceMeaningPairs(db, [ids.get('1')!], []))
    expect(await reasonsBetween('2', '1')).toEqual([])
  })
})
