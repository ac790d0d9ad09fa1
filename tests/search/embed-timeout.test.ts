import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_EMBEDDING_MODEL } from '../../src-main/ai/index.ts'
import { createEncoderEmbedder, type Embedder } from '../../src-main/search/embedder.ts'
import { createSearch } from '../../src-main/search/index.ts'
import { transaction, writeEmbedding } from '../../src-main/store/index.ts'
import { searchDb } from './search-db.ts'

const TOPICS = ['pruning roses in early spring', 'tuning sqlite indexes for reads', 'espresso grind size and pressure']
const MODEL = 'remote-test-model'
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms))

// The provider's query vector has a time-out (embedTimeoutMs); it must end with the answer, not run on.
describe("the provider's query vector time-out", () => {
  const lib = searchDb()
  const encoder = createEncoderEmbedder()
  beforeAll(async () => {
    const vectors = await encoder.embed(TOPICS)
    const ids = Array.from({ length: 60 }, (_, i) => lib.add(`${TOPICS[i % TOPICS.length]}, note ${i}`))
    transaction(lib.db, () => {
      ids.forEach((id, i) => {
        for (const model of [LOCAL_EMBEDDING_MODEL, MODEL]) writeEmbedding(lib.db, { bookmarkId: id, model, vector: vectors[i % TOPICS.length], contentHash: 'pipeline' })
      })
    })
  })
  afterAll(() => lib.close())

  const searchWith = async (provider: Embedder, warned: string[]) => {
    const search = createSearch({ db: lib.db, encoder, providerEmbedder: async () => provider, embedTimeoutMs: 100, log: { warn: (m) => void warned.push(m) } })
    try {
      return await search.search('pruning roses', { limit: 5 })
    } finally {
      await search.close()
    }
  }

  it('aborts a provider that does not answer in time, and the search answers without it', async () => {
    const signals: AbortSignal[] = []
    const hangs: Embedder = {
      model: MODEL, local: false,
      embed: (_texts, signal) => new Promise((_, reject) => {
        signals.push(signal!)
        signal!.addEventListener('abort', () => reject(signal!.reason))
      }),
    }
    const warned: string[] = []
    const r = await searchWith(hangs, warned)
    expect(signals).toHaveLength(1)
    expect(signals[0].aborted).toBe(true)
    expect((signals[0].reason as DOMException).name).toBe('TimeoutError')
    expect(warned.some((w) => w.includes('could not embed the query'))).toBe(true)
    expect(r.results.length).toBeGreaterThan(0)
  })

  it('ends the time-out with the answer: the signal of an answered question is never aborted', async () => {
    const signals: AbortSignal[] = []
    const answers: Embedder = { model: MODEL, local: false, embed: (texts, signal) => (signals.push(signal!), encoder.embed(texts)) }
    const warned: string[] = []
    const r = await searchWith(answers, warned)
    expect(r.semanticModel).toBe(MODEL)
    expect(warned).toEqual([])
    await wait(300)
    expect(signals).toHaveLength(1)
    expect(signals[0].aborted).toBe(false)
  })
})
