import { describe, expect, it, vi } from 'vitest'
import { LOCAL_EMBEDDING_MODEL } from '../../src-main/ai/index.ts'
import type { SearchResponse } from '../../src-shared/schemas/search.ts'
import { createEncoderEmbedder, SEARCH_LOCAL_MODEL, type Embedder } from '../../src-main/search/embedder.ts'
import { createLocalEmbedder, createSearch } from '../../src-main/search/index.ts'
import { createSemanticIndex, inputHash } from '../../src-main/search/semantic.ts'
import { countEmbeddings, writeEmbedding, transaction } from '../../src-main/store/index.ts'
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
      // Held in memory as they are written (else the catch-up writes them to the table only).
      writer.preload()
      writer.catchUp(Infinity)
      expect(writer.size).toBe(3000)

      const reader = createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder(), ownsQueue: false })
      const qv = await reader.embedQuery('pruning roses')
      const early = await reader.query(qv, 10)
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

  it('reads its vectors without other events waking the thread (an idle server\'s)', async () => {
    const lib = searchDb()
    try {
      const embedder = createLocalEmbedder()
      const ids = Array.from({ length: 10_000 }, (_, i) => lib.add(`${TOPICS[i % TOPICS.length]}, note ${i}`))
      transaction(lib.db, () => {
        ids.forEach((id, i) => writeEmbedding(lib.db, { bookmarkId: id, model: embedder.model, vector: embedder.embedNow(TOPICS[i % TOPICS.length]), contentHash: 'x' }))
      })
      const index = createSemanticIndex({ db: lib.db, embedder, ownsQueue: false })
      index.preload()
      expect(index.loading).toBe(true)
      // One timer and nothing else for the slices to run between (twenty of them).
      await new Promise((r) => setTimeout(r, 2000))
      expect(index.loading).toBe(false)
      expect(index.size).toBe(ids.length)
    } finally {
      lib.close()
    }
  }, 60_000)

  it('searches with the sentence vectors stored for the library while they load, from those read so far and saying so, then with all of them, and reads those stored later', async () => {
    // The load reads a slice a turn, each after a timer: the test runs those timers itself, so what a search
    // sees does not depend on how long the model's thread takes over the question (under load, long enough
    // for every slice to be read before the first search answered, which then said nothing of loading).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
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

      const loading = (r: SearchResponse) => r.understood.notes?.some((n) => n.includes('still loading')) ?? false
      // The first search reads the first slice (500 of 2,001 vectors) and answers from it.
      const first = await search.search('baby sleep', { limit: 3 })
      expect(first.semanticModel).toBe(LOCAL_EMBEDDING_MODEL)
      expect(loading(first)).toBe(true)
      expect(first.results[0]?.bookmark.text).not.toBe(target)

      // A timer at a time (the next slice's, or another part's), a search after each, until one no longer says it loads.
      let last = first
      let timers = 0
      while (loading(last) && timers < 100) {
        vi.advanceTimersToNextTimer()
        timers++
        last = await search.search('baby sleep', { limit: 3 })
      }
      expect(loading(last)).toBe(false)
      expect(timers).toBeGreaterThanOrEqual(4)
      expect(last.semanticModel).toBe(LOCAL_EMBEDDING_MODEL)
      expect(last.results[0]?.bookmark.text).toBe(target)

      // A vector the pipeline stores afterwards is read by the next search.
      const later = 'Getting a newborn to nap in the afternoon'
      const id = lib.add(later)
      writeEmbedding(lib.db, { bookmarkId: id, model: LOCAL_EMBEDDING_MODEL, vector: (await encoder.embed([later]))[0], contentHash: inputHash(later) })
      last = await search.search('baby sleep', { limit: 3 })
      expect(last.results.map((r) => r.bookmark.text)).toContain(later)
    } finally {
      await search.close()
      lib.close()
      vi.useRealTimers()
    }
  }, 60_000)

  it('reads the word vectors, before any search needs them, once an import outgrows the sentence vectors', async () => {
    // The test runs the timers the load's slices wait on, so no search can come before they are read however slow the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const lib = searchDb()
    const encoder = createEncoderEmbedder()
    try {
      const vectors = await encoder.embed(TOPICS)
      const covered = Array.from({ length: 300 }, (_, i) => lib.add(`${TOPICS[i % TOPICS.length]}, note ${i}`))
      transaction(lib.db, () => {
        covered.forEach((id, i) => writeEmbedding(lib.db, { bookmarkId: id, model: LOCAL_EMBEDDING_MODEL, vector: vectors[i % TOPICS.length], contentHash: 'pipeline' }))
      })
      const search = createSearch({ db: lib.db, encoder })
      try {
        // An import of three times as many posts, which the pipeline has not embedded yet.
        for (let i = 0; i < 900; i++) lib.add(`${TOPICS[i % TOPICS.length]}, imported ${i}`)
        expect(search.catchUp()).toBe(0)
        search.kick()
        // 100 ms of timers, no search: the slices (a timer of 0 ms each) and the catch-up's turns, not the word index's look.
        vi.advanceTimersByTime(100)

        const first = await search.search('pruning roses', { limit: 10 })
        expect(first.semanticModel).toBe(SEARCH_LOCAL_MODEL)
        expect(first.understood.notes?.some((n) => n.includes('still loading')) ?? false).toBe(false)
      } finally {
        await search.close()
      }
    } finally {
      lib.close()
      vi.useRealTimers()
    }
  }, 60_000)

  it('reads no word vectors while the sentence vectors cover the library, but writes them, and reads them all once a search needs them', async () => {
    const lib = searchDb()
    const encoder = createEncoderEmbedder()
    // A provider whose stored vectors cover the library but which fails to embed the question: search falls back to the word vectors.
    const provider: Embedder = { model: 'remote-test-model', local: false, embed: () => Promise.reject(new Error('provider down')) }
    const warned: string[] = []
    try {
      const vectors = await encoder.embed(TOPICS)
      const ids = Array.from({ length: 1500 }, (_, i) => lib.add(`${TOPICS[i % TOPICS.length]}, note ${i}`))
      transaction(lib.db, () => {
        ids.forEach((id, i) => {
          for (const model of [LOCAL_EMBEDDING_MODEL, provider.model]) writeEmbedding(lib.db, { bookmarkId: id, model, vector: vectors[i % TOPICS.length], contentHash: 'pipeline' })
        })
      })
      const search = createSearch({ db: lib.db, encoder, providerEmbedder: async () => provider, log: { warn: (m) => void warned.push(m) } })
      try {
        // The posts' word vectors are written (the fallback stays complete) and the server's start has had its turns.
        search.indexQueued()
        expect(search.catchUp()).toBe(0)
        expect(countEmbeddings(lib.db, SEARCH_LOCAL_MODEL)).toBe(ids.length)
        await new Promise((r) => setTimeout(r, 200))

        const loading = (r: SearchResponse) => r.understood.notes?.some((n) => n.includes('still loading')) ?? false
        const first = await search.search('pruning roses', { limit: 10 })
        expect(warned.some((w) => w.includes('could not embed the query'))).toBe(true)
        expect(first.semanticModel).toBe(SEARCH_LOCAL_MODEL)
        // Read only now, from the first slice on: the search says so and answers from what is read.
        expect(loading(first)).toBe(true)
        expect(first.results.length).toBeGreaterThan(0)

        let last = first
        await until(async () => !loading(last = await search.search('pruning roses', { limit: 10 })))
        expect(loading(last)).toBe(false)
        expect(last.semanticModel).toBe(SEARCH_LOCAL_MODEL)
        expect(last.results.map((r) => r.bookmark.text).every((t) => t.startsWith(TOPICS[0]))).toBe(true)
      } finally {
        await search.close()
      }
    } finally {
      lib.close()
    }
  }, 60_000)
})
