import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { explainResults } from '../../src-main/search/explain-results.ts'
import { createQueryUnderstanding } from '../../src-main/search/query-understanding.ts'
import { searchDocuments, searchIndexQueued } from '../../src-main/store/index.ts'
import { searchDb } from './search-db.ts'

describe('explaining results', () => {
  const lib = searchDb()
  let understand: ReturnType<typeof createQueryUnderstanding>
  let words = 0
  let meaning = 0
  beforeAll(() => {
    words = lib.add('Sourdough starters need daily feeding', 'baker')
    meaning = lib.add('Rye loaves and a long cold proof', 'baker')
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
})
