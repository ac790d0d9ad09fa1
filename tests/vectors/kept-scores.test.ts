import { afterAll, describe, expect, it } from 'vitest'
import { createFlatIndex, createScanThread, type FlatIndex } from '../../src-main/vectors/index.ts'

const random = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5
const DIM = 100 // rows padded to 112 bytes: the padding must not count
const rnd = random(5)
const vectorOf = () => Float32Array.from({ length: DIM }, rnd)

/** Each id's kept score, asked of the index now. */
const keptOf = async (idx: FlatIndex, q: Float32Array, ids: number[]) => {
  const score = await idx.keptScores(q)
  return Float32Array.from(ids, score)
}

/** What the scan gives each id (every id asked, all allowed), bit for bit; 0 for an id the index does not hold. */
const scanned = (idx: FlatIndex, q: Float32Array, ids: number[]) => {
  const byId = new Map(idx.search(q, ids.length, new Set(ids)).map((h) => [h.id, h.score]))
  return Float32Array.from(ids, (id) => byId.get(id) ?? 0)
}

describe('a query kept per row (the blank vector\'s scores)', () => {
  it('gives each id the score the scan gives it, after upserts, removals (rows moved), growth and another query', async () => {
    // Few rows at first: the index grows twice; the scan's scores and the kept ones come from different code.
    const idx = createFlatIndex({ dim: DIM, initialCapacity: 64 })
    for (let id = 1; id <= 200; id++) idx.upsert(id, vectorOf())
    const blank = vectorOf()
    const all = Array.from({ length: 200 }, (_, i) => i + 1)
    expect(await keptOf(idx, blank, all)).toEqual(scanned(idx, blank, all))

    // Each row's score is now kept: change some, remove some (the last rows move into their places), add more.
    for (let id = 1; id <= 200; id += 7) idx.upsert(id, vectorOf())
    for (let id = 3; id <= 200; id += 11) idx.remove(id)
    for (let id = 201; id <= 300; id++) idx.upsert(id, vectorOf())
    const asked = [...Array.from({ length: 300 }, (_, i) => i + 1), 9999]
    const kept = await keptOf(idx, blank, asked)
    expect(kept).toEqual(scanned(idx, blank, asked))
    expect(kept[asked.indexOf(3)]).toBe(0)
    expect(kept.filter((s) => s !== 0).length).toBe(idx.size)

    // Asked again (the same query, a copy of it): the kept scores; another query: its own.
    expect(await keptOf(idx, Float32Array.from(blank), asked)).toEqual(kept)
    const other = vectorOf()
    expect(await keptOf(idx, other, asked)).toEqual(scanned(idx, other, asked))
  })

  describe('with a scan thread', () => {
    const thread = createScanThread()
    afterAll(() => thread.close())

    it('sees every write made before it was asked, as searchFar does (writes queued behind a scan in flight)', async () => {
      const idx = createFlatIndex({ dim: DIM, thread, threadFrom: 100 })
      for (let id = 1; id <= 500; id++) idx.upsert(id, vectorOf())
      const blank = vectorOf()
      const ids = Array.from({ length: 500 }, (_, i) => i + 1)
      await keptOf(idx, blank, ids)
      // On the thread (posted at once): the writes below are queued until it ends.
      const scan = idx.searchFar(vectorOf(), 10)
      idx.upsert(7, vectorOf())
      idx.remove(8)
      idx.upsert(501, vectorOf())
      const kept = await keptOf(idx, blank, [...ids, 501])
      await scan
      expect(kept).toEqual(scanned(idx, blank, [...ids, 501]))
      expect(kept[7]).toBe(0)
    })
  })
})
