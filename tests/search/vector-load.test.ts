import { describe, expect, it } from 'vitest'
import { LOCAL_EMBEDDING_MODEL } from '../../src-main/ai/index.ts'
import { createEncoderEmbedder } from '../../src-main/search/embedder.ts'
import { createLocalEmbedder, createSearch } from '../../src-main/search/index.ts'
import { createSemanticIndex, inputHash } from '../../src-main/search/semantic.ts'
import { writeEmbedding, transaction } from '../../src-main/store/index.ts'
import { searchDb } from './search-db.ts'

const TOPICS = ['pruning roses in early spring', 'tuning sqlite indexes for reads', 'espresso grind size and pressure',
  'training for a first marathon', 'kerning and line height in typography', 'fusion reactor magnets']

/** Polls until `done()` (the vectors load between turns of the event loop), for up to 20 s. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000
  while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
}

describe('loading the stored vectors', () => {
  it('answers a query before every vector is read, from those read so far, and completely once they all are', async () => {
    const lib = searchDb()
    try {
      for (let i = 0; i < 3000; i++) lib.add(`${TOPICS[i % TOPICS.length]}, note ${i}`)
      const writer = createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() })
      writer.catchUp(Infinity)
      expect(writer.size).toBe(3000)

      const reader = createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder(), ownsQueue: false })
      const qv = await reader.embedQuery('pruning roses')
      const early = reader.query(qv, 10)
      expect(reader.loading).toBe(true)
      expect(reader.size).toBeGreaterThan(0)
      expect(reader.size).toBeLessThan(3000)
      expect(early.length).toBe(10)

      await until(() => !reader.loading)
      expect(reader.size).toBe(3000)
      expect(reader.query(qv, 50)).toEqual(writer.query(qv, 50))
    } finally {
      lib.close()
    }
  })

  it('searches with the word vectors while the sentence vectors load, saying so by the model it names, then with the sentence vectors, and reads those stored later', async () => {
    const lib = searchDb()
    const encoder = createEncoderEmbedder()
    const search = createSearch({ db: lib.db, encoder })
    try {
      // Many posts on five topics, then the one the question means, last (in the last slice read).
      const texts = ['Tuning SQLite indexes for faster reads', 'Espresso grind size and brew pressure', 'Kerning and line height in typography',
        'Training plan for a first marathon', 'Fusion reactor magnet designs']
      const target = 'Our toddler finally slept through the night, first time in months'
      const vectors = await encoder.embed([...texts, target])
      const ids: Array<{ id: number; text: string; vector: Float32Array }> = []
      for (let i = 0; i < 2000; i++) ids.push({ id: lib.add(`${texts[i % texts.length]} (${i})`), text: texts[i % texts.length], vector: vectors[i % texts.length] })
      ids.push({ id: lib.add(target), text: target, vector: vectors[texts.length] })
      transaction(lib.db, () => {
        for (const p of ids) writeEmbedding(lib.db, { bookmarkId: p.id, model: LOCAL_EMBEDDING_MODEL, vector: p.vector, contentHash: inputHash(p.text) })
      })
      search.indexQueued()
      search.catchUp()

      const first = await search.search('baby sleep', { limit: 3 })
      expect(first.semanticModel).toBe('sheaf-search-wv100')

      let last = first
      await until(async () => (last = await search.search('baby sleep', { limit: 3 })).semanticModel === LOCAL_EMBEDDING_MODEL)
      expect(last.semanticModel).toBe(LOCAL_EMBEDDING_MODEL)
      expect(last.results[0]?.bookmark.text).toBe(target)

      // A vector the pipeline stores afterwards is read by a later search.
      const later = 'Getting a newborn to nap in the afternoon'
      const id = lib.add(later)
      writeEmbedding(lib.db, { bookmarkId: id, model: LOCAL_EMBEDDING_MODEL, vector: (await encoder.embed([later]))[0], contentHash: inputHash(later) })
      await until(async () => (last = await search.search('baby sleep', { limit: 3 })).results.some((r) => r.bookmark.text === later))
      expect(last.results.map((r) => r.bookmark.text)).toContain(later)
    } finally {
      search.close()
      lib.close()
    }
  }, 60_000)
})
