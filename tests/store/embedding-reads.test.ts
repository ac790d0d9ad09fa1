import { describe, expect, it } from 'vitest'
import { countEmbeddings, eachEmbedding, embeddingsFor, transaction, writeEmbedding } from '../../src-main/store/index.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { searchDb } from '../search/search-db.ts'

const MODEL = 'test-model'
const vectorOf = (i: number) => Float32Array.from({ length: 16 }, (_, d) => Math.sin(i * 16 + d))

describe('reading every stored vector (stage 4 loads the whole library for its related-post index)', () => {
  it('visits each vector once, in id order, page by page, through one array per page rather than one per post', () => {
    const lib = searchDb()
    try {
      const ids = Array.from({ length: 25 }, (_, i) => lib.add(`post ${i}`))
      transaction(lib.db, () => ids.forEach((id, i) => writeEmbedding(lib.db, { bookmarkId: id, model: MODEL, vector: vectorOf(i), contentHash: `h${i}` })))
      expect(countEmbeddings(lib.db, MODEL)).toBe(25)

      const seen: number[] = []
      const arrays = new Set<Float32Array>()
      let pages = 0
      for (let after = 0; ; pages++) {
        const last = eachEmbedding(lib.db, MODEL, after, 10, (id, vector) => {
          // The values are the stored ones while the visit lasts; the caller copies what it keeps.
          expect([...vector]).toEqual([...vectorOf(ids.indexOf(id))])
          seen.push(id)
          arrays.add(vector)
        })
        if (last === after) break
        after = last
      }
      expect(seen).toEqual(ids)
      expect(pages).toBe(3)
      // One array per page of 10: not one of 2 KB per post, left to the collector.
      expect(arrays.size).toBe(3)
      // Reads that keep their vectors still get arrays of their own.
      const kept = embeddingsFor(lib.db, MODEL, ids.slice(0, 2))
      expect(kept.get(ids[0])).not.toBe(kept.get(ids[1]))
      expect([...kept.get(ids[1])!]).toEqual([...vectorOf(1)])
    } finally {
      lib.close()
    }
  })

  it('reads each page from the primary key in id order, not all of the model\'s rows sorted again per page', () => {
    const lib = searchDb()
    try {
      const ids = Array.from({ length: 30 }, (_, i) => lib.add(`post ${i}`))
      transaction(lib.db, () => ids.forEach((id, i) => {
        for (const model of [MODEL, 'other-model']) writeEmbedding(lib.db, { bookmarkId: id, model, vector: vectorOf(i), contentHash: `h${i}` })
      }))
      const client = sqliteOf(lib.db)
      const prepare = client.prepare.bind(client)
      const prepared: string[] = []
      client.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof client.prepare
      const seen: number[] = []
      eachEmbedding(lib.db, MODEL, ids[4], 10, (id) => seen.push(id))
      expect(seen).toEqual(ids.slice(5, 15))
      const page = prepared.find((sql) => /FROM embeddings/.test(sql) && /bookmark_id > \?/.test(sql))!
      const plan = (prepare(`EXPLAIN QUERY PLAN ${page}`).all(MODEL, 0, 10) as { detail: string }[]).map((r) => r.detail).join(' | ')
      // At 100,000 posts the (model, seq) index and a sort cost 230 ms a page of 2,000; the key, 7 ms.
      expect(plan).toMatch(/USING INDEX sqlite_autoindex_embeddings_1 \(bookmark_id>\?\)/)
      expect(plan).not.toMatch(/TEMP B-TREE/)
    } finally {
      lib.close()
    }
  })
})
