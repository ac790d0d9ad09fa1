import { readdirSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { postSetOf } from '../../src-main/search/filter-sets.ts'
import { createFlatIndex, createScanThread, type FlatIndex } from '../../src-main/vectors/index.ts'

const random = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5
const unit = (v: Float32Array) => {
  const n = Math.hypot(...v)
  return v.map((x) => x / n)
}

// The sentence encoder's 512 dimensions (64-byte codes: the kernel's near64), rows in a few clusters so
// questions have close neighbours, and every tenth row a copy of a row of cluster 0 or 10 (ties in score).
const DIM = 512
const ROWS = 12_000
const CODES_FROM = 2000
const rnd = random(11)
const centres = Array.from({ length: 20 }, () => unit(Float32Array.from({ length: DIM }, rnd)))
const vectorAt = (i: number) => unit(centres[i % centres.length].map((x) => x + rnd() * 0.15))
const vectors: Float32Array[] = []
for (let i = 0; i < ROWS; i++) vectors.push(i % 10 === 9 ? vectors[i - 9] : vectorAt(i))
const questions = Array.from({ length: 6 }, (_, i) => unit(centres[i * 3].map((x) => x + rnd() * 0.2)))

const thread = createScanThread()
afterAll(() => thread.close())

/** Post i + 1 holds vectors[i]; scans of at least `threadFrom` rows go to the thread. */
const filled = (opts: { initialCapacity?: number } = {}): FlatIndex => {
  const idx = createFlatIndex({ dim: DIM, codesFrom: CODES_FROM, thread, threadFrom: 1000, ...opts })
  vectors.forEach((v, i) => idx.upsert(i + 1, v))
  return idx
}

describe('the vector scan on its own thread', () => {
  const idx = filled()

  it('answers as the scan on this thread does: ids, scores and ties (plain, a kept filter, a Set, the wide query)', async () => {
    const kept = postSetOf(Array.from({ length: ROWS }, (_, i) => i + 1).filter((id) => id % 3 !== 0))
    const set = new Set(Array.from({ length: ROWS }, (_, i) => i + 1).filter((id) => id % 2 === 0))
    const before = thread.scanned
    let asked = 0
    for (const q of questions) {
      for (const [k, allowed] of [[200, undefined], [200, kept], [200, set], [1000, undefined], [10, kept]] as const) {
        const far = await idx.searchFar(q, k, allowed)
        asked++
        expect(far).toEqual(idx.search(q, k, allowed))
        expect(far.length).toBe(k)
      }
    }
    // Ties were there to keep: copies score alike, and the earlier row comes first either way.
    const top = await idx.searchFar(questions[0], 200)
    expect(top.some((h, i) => i > 0 && h.score === top[i - 1].score)).toBe(true)
    expect(thread.scanned - before).toBe(asked + 1)
  })

  it('answers the same several scans at once (in flight together)', async () => {
    const all = await Promise.all(questions.map((q) => idx.searchFar(q, 200)))
    all.forEach((hits, i) => expect(hits).toEqual(idx.search(questions[i], 200)))
  })

  it('scores a narrow filter\'s few posts here, without the thread', async () => {
    const few = new Set([5, 77, 901, 4000, 11_999])
    const before = thread.scanned
    expect((await idx.searchFar(questions[1], 3, few)).map((h) => h.id)).toEqual(idx.search(questions[1], 3, few).map((h) => h.id))
    expect(thread.scanned).toBe(before)
  })
})

describe('writes and scans on the thread', () => {
  it('keeps a write made while a scan is in flight from that scan, and shows it to the next', async () => {
    const idx = filled()
    const q = questions[2]
    const [first] = idx.search(q, 1)
    // Scans queued on the thread ahead of this one: it has surely not read the rows when the writes come.
    const ahead = questions.map((v) => idx.searchFar(v, 1000))
    const inFlight = idx.searchFar(q, 20)
    idx.upsert(ROWS + 1, q)
    idx.remove(first.id)
    // Counted at once, though queued.
    expect(idx.has(ROWS + 1)).toBe(true)
    expect(idx.has(first.id)).toBe(false)
    expect(idx.size).toBe(ROWS)
    const seen = await inFlight
    await Promise.all(ahead)
    expect(seen[0].id).toBe(first.id)
    expect(seen.some((h) => h.id === ROWS + 1)).toBe(false)
    const next = await idx.searchFar(q, 20)
    expect(next[0].id).toBe(ROWS + 1)
    expect(next.some((h) => h.id === first.id)).toBe(false)
    expect(next).toEqual(idx.search(q, 20))
  })

  it('makes a search asked while writes wait see them, and the scan before it not', async () => {
    const idx = filled()
    const q = questions[4]
    const ahead = questions.map((v) => idx.searchFar(v, 1000))
    const before = idx.searchFar(q, 10)
    idx.upsert(ROWS + 7, q)
    const after = idx.searchFar(q, 10)
    expect((await before).some((h) => h.id === ROWS + 7)).toBe(false)
    expect((await after)[0].id).toBe(ROWS + 7)
    await Promise.all(ahead)
  })

  it('follows the index into new memory when it grows while scans run', async () => {
    const idx = filled({ initialCapacity: ROWS })
    const q = questions[5]
    const scanned = thread.scanned
    const running = [idx.searchFar(q, 200), idx.searchFar(questions[0], 1000)]
    // Twice the room needed: applied once the scans end, into new memory the next scan is sent.
    const more = Array.from({ length: 3000 }, (_, i) => vectorAt(i + 7))
    more.forEach((v, i) => idx.upsert(ROWS + 1 + i, v))
    idx.upsert(ROWS + 5000, q)
    expect(idx.size).toBe(ROWS + 3001)
    const [early] = await Promise.all(running)
    expect(early.some((h) => h.id > ROWS)).toBe(false)
    const grown = await idx.searchFar(q, 200)
    expect(grown[0].id).toBe(ROWS + 5000)
    expect(grown.some((h) => h.id > ROWS && h.id < ROWS + 5000)).toBe(true)
    expect(grown).toEqual(idx.search(q, 200))
    for (const v of questions) expect(await idx.searchFar(v, 1000)).toEqual(idx.search(v, 1000))
    // Each on the thread, over the new memory (a scan it failed would have been answered here).
    expect(thread.scanned - scanned).toBe(3 + questions.length)
  })
})

describe('closing the scan thread', () => {
  const threads = () => readdirSync('/proc/self/task').length

  it('ends the thread, and scans run here from then on', async () => {
    const before = threads()
    const own = createScanThread()
    const idx = createFlatIndex({ dim: DIM, codesFrom: CODES_FROM, thread: own, threadFrom: 1000 })
    vectors.slice(0, 3000).forEach((v, i) => idx.upsert(i + 1, v))
    const hits = await idx.searchFar(questions[0], 50)
    expect(own.scanned).toBe(1)
    expect(threads()).toBeGreaterThan(before)
    await own.close()
    expect(threads()).toBe(before)
    expect(own.usable).toBe(false)
    expect(await idx.searchFar(questions[0], 50)).toEqual(hits)
    expect(own.scanned).toBe(1)
  })
})
