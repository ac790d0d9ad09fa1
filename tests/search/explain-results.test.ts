import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { explainResults, mediaOfPool } from '../../src-main/search/explain-results.ts'
import { createQueryUnderstanding } from '../../src-main/search/query-understanding.ts'
import { searchDocuments, searchIndexQueued } from '../../src-main/store/index.ts'
import { insertMedia } from '../../src-main/store/queries/media.ts'
import { searchDb } from './search-db.ts'

describe('explaining results', () => {
  const lib = searchDb()
  let understand: ReturnType<typeof createQueryUnderstanding>
  let words = 0
  let meaning = 0
  let gif = 0
  beforeAll(() => {
    words = lib.add('Sourdough starters need daily feeding', 'baker')
    meaning = lib.add('Rye loaves and a long cold proof', 'baker')
    gif = lib.add('Shaping a sourdough boule', 'baker')
    const media = { url: 'https://pbs.twimg.com/x.jpg', thumbnailUrl: 'https://pbs.twimg.com/x.jpg', videoUrl: null, altText: null, width: null, height: null, durationMs: null }
    insertMedia(lib.db, meaning, 0, { ...media, type: 'photo' })
    insertMedia(lib.db, gif, 0, { ...media, type: 'animated_gif' })
    while (searchIndexQueued(lib.db, 64) > 0);
    understand = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15) })
  })
  afterAll(() => lib.close())
  const docs = () => new Map(searchDocuments(lib.db, [words, meaning]).map((d) => [d.id, d]))

  it('says where the words matched, and orders by the relevance the evidence shows', () => {
    // The meaning-only post comes first by fusion; the post with the words and the meaning goes above it.
    const pool = [{ id: meaning, bm25: null, cosine: 0.6, rrf: 0.02 }, { id: words, bm25: 6, cosine: 0.6, rrf: 0.01 }]
    const out = explainResults(pool, docs(), understand('sourdough from:@baker'))
    expect(out.map((r) => r.id)).toEqual([words, meaning])
    expect(out[0].reason).toBe('Mentions “Sourdough”; similar in meaning to your search; by @baker')
    expect(out[1].reason).toBe('Similar in meaning to your search; by @baker')
    expect(out[0].relevance).toBeGreaterThan(out[1].relevance)
  })

  it('keeps the order of a query that is only filters, every result fully relevant', () => {
    const pool = [{ id: meaning, bm25: null, cosine: null, rrf: 0 }, { id: words, bm25: null, cosine: null, rrf: 0 }]
    const out = explainResults(pool, docs(), understand('from:@baker'))
    expect(out.map((r) => [r.id, r.relevance])).toEqual([[meaning, 1], [words, 1]])
  })

  it('says a post has the image or video the words ask for, and lifts it above its equal', () => {
    const ids = [words, meaning, gif]
    const docs = new Map(searchDocuments(lib.db, ids).map((d) => [d.id, d]))
    const pool = ids.map((id) => ({ id, bm25: null, cosine: 0.6, rrf: 0.01 }))
    const ask = (query: string) => {
      const q = understand(query)
      return explainResults(pool, docs, q, mediaOfPool(lib.db, ids, q)).map((r) => [r.id, r.reason])
    }
    expect(ask('bread photo')).toEqual([
      [meaning, 'Similar in meaning to your search; has an image, as your words suggest'],
      [words, 'Similar in meaning to your search'],
      [gif, 'Similar in meaning to your search'],
    ])
    expect(ask('bread gif')[0]).toEqual([gif, 'Similar in meaning to your search; has a video, as your words suggest'])
    expect(ask('bread').map(([, reason]) => reason)).toEqual(Array(3).fill('Similar in meaning to your search'))
  })
})
