import { describe, expect, it } from 'vitest'
import { createSpace, openKernel, quantize, spaceCodes, spaceRows } from '../../src-main/vectors/space.ts'
import { buildClusteredIndex, createFlatIndex, openClusteredIndex, rowsFor, writeRow } from '../../src-main/vectors/index.ts'
import { bestK, bestOf } from '../../src-main/vectors/top-k.ts'

const random = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5
const unit = (v: Float32Array) => {
  const n = Math.hypot(...v)
  return v.map((x) => x / n)
}
const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0)

describe('vector space kernel', () => {
  it('computes the same int8 dot products in WebAssembly SIMD and in plain JS', () => {
    const outs = [true, false].map((simd) => {
      const space = createSpace(112, 300, { simd })
      const k = openKernel(space)
      expect(k.simd).toBe(simd)
      const rows = spaceRows(space)
      for (let i = 0; i < rows.length; i++) rows[i] = ((i * 7919) % 255) - 127
      for (let i = 0; i < 112; i++) k.query[i] = ((i * 31) % 255) - 127
      k.dots(k.queryAt, space.rowsAt, 300, space.rowBytes, k.outAt)
      return Array.from(k.out.subarray(0, 300))
    })
    expect(outs[0]).toEqual(outs[1])
    let expected = 0
    for (let d = 0; d < 112; d++) expected += (((d * 31) % 255) - 127) * (((d * 7919) % 255) - 127)
    expect(outs[0][0]).toBe(expected)
  })

  it('scores a list of rows, a group at a time, as it scores each row alone (WebAssembly and plain JS)', () => {
    for (const simd of [true, false]) {
      const space = createSpace(112, 300, { simd })
      const k = openKernel(space)
      const rows = spaceRows(space)
      for (let i = 0; i < rows.length; i++) rows[i] = ((i * 7919) % 255) - 127
      for (let i = 0; i < 112; i++) k.query[i] = ((i * 31) % 255) - 127
      k.dots(k.queryAt, space.rowsAt, 300, space.rowBytes, k.outAt)
      const each = Array.from(k.out.subarray(0, 300))
      const picked = [299, 0, 17, 17, 150, 3, 298, 42]
      k.list.set(picked)
      k.out.fill(0)
      k.dotsAt(k.queryAt, space.rowsAt, k.listAt, picked.length, space.rowBytes, k.outAt)
      expect(Array.from(k.out.subarray(0, picked.length))).toEqual(picked.map((p) => each[p]))
      expect(k.out[picked.length]).toBe(0)
    }
  })

  it('finds the codes within some bits of one the same in WebAssembly and in plain JS (any width, and 512 dims\' own kernel)', () => {
    const bits = (b: number) => b.toString(2).replace(/0/g, '').length
    const code = (i: number) => Math.imul(i + 1, 2654435761) >>> 24
    for (const [dim, bytes, t] of [[200, 32, 126], [512, 64, 252]]) {
      const outs = [true, false].map((simd) => {
        const space = createSpace(dim, 50, { codes: true, simd })
        expect(space.codeBytes).toBe(bytes)
        const k = openKernel(space)
        const codes = spaceCodes(space)
        for (let i = 0; i < codes.length; i++) codes[i] = code(i)
        for (let i = 0; i < bytes; i++) k.queryCode[i] = (i * 37) % 256
        const n = k.near(k.queryCodeAt, space.codesAt, 50, space.codeBytes, k.outAt, t)
        return Array.from(k.out.subarray(0, n))
      })
      expect(outs[0]).toEqual(outs[1])
      const expected: number[] = []
      for (let row = 0; row < 50; row++) {
        let n = 0
        for (let i = 0; i < bytes; i++) n += bits(((i * 37) % 256) ^ code(row * bytes + i))
        if (n <= t) expected.push((row << 16) | n)
      }
      expect(expected.length).toBeGreaterThan(5)
      expect(expected.length).toBeLessThan(45)
      expect(outs[0]).toEqual(expected)
    }
  })
})

describe('best k', () => {
  it('hands back the best k of the rows offered, best first, ties to the earlier row', () => {
    const rnd = random(5)
    // Scores from a few values, so most are tied.
    const offered = Array.from({ length: 2000 }, (_, row) => ({ row, score: Math.fround(Math.floor(rnd() * 50) / 7) }))
    const expected = [...offered].sort((a, b) => b.score - a.score || a.row - b.row)
    for (const k of [1, 7, 200, 1999, 2000, 3000]) {
      const best = bestK(k)
      for (const o of offered) best.push(o.score, o.row)
      expect(best.drain((row, score) => ({ row, score }))).toEqual(expected.slice(0, k))
    }
  })

  it('selects, from scores in row order, exactly what sorting them all selects (ties to the earlier row)', () => {
    const rnd = random(11)
    for (const [n, values] of [[2080, 9], [2080, 400], [5000, 3], [300, 1], [9000, 100_000]]) {
      const rows = Int32Array.from({ length: n }, (_, i) => 3 * i + (i % 3))
      const scores = Float32Array.from({ length: n }, () => Math.floor((rnd() + 0.5) * values) / values - 0.25)
      const sorted = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b)
      for (const k of [0, 1, 2, 10, 200, 1000, n - 1, n, n + 5]) {
        const expected = sorted.slice(0, Math.max(0, k)).map((i) => ({ row: rows[i], score: scores[i] }))
        expect(bestOf(scores, rows, n, k, (row, score) => ({ row, score }))).toEqual(expected)
      }
    }
  })
})

describe('flat index', () => {
  it('returns, among allowed posts, the brute-force top k by the int8 scores, ties to the earlier post', () => {
    // Rows copied from a few vectors, so scores tie in runs; an allowed set scored alone (few) and in the scan (many).
    const DIM = 16
    const rnd = random(21)
    const pool = Array.from({ length: 12 }, () => Float32Array.from({ length: DIM }, rnd))
    const idx = createFlatIndex({ dim: DIM, codesFrom: Infinity })
    const rows = new Map<number, { i8: Int8Array; scale: number }>()
    for (let id = 1; id <= 6000; id++) {
      const v = pool[Math.floor((rnd() + 0.5) * pool.length)]
      idx.upsert(id, v)
      const i8 = new Int8Array(DIM)
      rows.set(id, { i8, scale: Math.fround(quantize(v, i8, 0)) }) // the index keeps each row's factor as float32
    }
    const q = Float32Array.from({ length: DIM }, rnd)
    const qi8 = new Int8Array(DIM)
    const qs = quantize(q, qi8, 0)
    const score = (id: number) => {
      const { i8, scale } = rows.get(id)!
      let dot = 0
      for (let d = 0; d < DIM; d++) dot += i8[d] * qi8[d]
      return Math.fround(dot * scale * qs)
    }
    for (const share of [20, 2]) {
      const allowed = new Set(Array.from({ length: 6000 }, (_, i) => i + 1).filter((id) => id % share === 0))
      const expected = [...allowed].map((id) => ({ id, score: score(id) })).sort((a, b) => b.score - a.score || a.id - b.id)
      for (const k of [1, 5, 60, 299, 300, 301, 1000]) expect(idx.search(q, k, allowed)).toEqual(expected.slice(0, k))
    }
  })

  it('finds nearest neighbours by cosine, grows, honours removals and the allowed set', () => {
    const idx = createFlatIndex({ dim: 3, initialCapacity: 2 })
    idx.upsert(1, Float32Array.of(1, 0, 0))
    idx.upsert(2, Float32Array.of(0.7, 0.7, 0))
    idx.upsert(3, Float32Array.of(0, 0, 1))
    idx.upsert(4, Float32Array.of(-1, 0, 0))
    const q = Float32Array.of(1, 0.1, 0)
    const hits = idx.search(q, 3)
    expect(hits.map((h) => h.id)).toEqual([1, 2, 3])
    expect(hits[0].score).toBeCloseTo(0.995, 2)
    expect(hits[1].score).toBeCloseTo(0.774, 2)
    idx.remove(1)
    expect(idx.size).toBe(3)
    expect(idx.search(q, 1)[0].id).toBe(2)
    expect(idx.search(q, 2, new Set([3, 4])).map((h) => h.id)).toEqual([3, 4])
    idx.upsert(2, Float32Array.of(-0.5, 0, -1))
    expect(idx.search(q, 1)[0].id).toBe(3)
  })

  it('returns the same order for any k, and within any allowed set', () => {
    const idx = createFlatIndex({ dim: 8 })
    const rnd = random(3)
    for (let id = 1; id <= 3000; id++) idx.upsert(id, Float32Array.from({ length: 8 }, rnd))
    const q = Float32Array.from({ length: 8 }, rnd)
    const many = idx.search(q, 500)
    expect(many).toHaveLength(500)
    for (let i = 1; i < many.length; i++) expect(many[i - 1].score).toBeGreaterThanOrEqual(many[i].score)
    expect(many.slice(0, 10).map((h) => h.id)).toEqual(idx.search(q, 10).map((h) => h.id))
    expect(idx.search(q, 200)).toEqual(many.slice(0, 200))
    const allowed = new Set([5, 6, 7, 2999])
    expect(idx.search(q, 100, allowed).map((h) => h.id).sort((a, b) => a - b)).toEqual([5, 6, 7, 2999])
    // A few allowed posts are scored alone, many in the scan: both give what the whole ranking says.
    for (const share of [40, 3]) {
      const some = new Set(Array.from({ length: 3000 }, (_, i) => i + 1).filter((id) => id % share === 0))
      expect(idx.search(q, 20, some)).toEqual(idx.search(q, 3000).filter((h) => some.has(h.id)).slice(0, 20))
    }
  })
})

describe('flat index ranking by code first', () => {
  // Ten times the rows re-scored (rescored(k) = 2000 here), so a row whose code is wrong is left out: N rows
  // facing away from q, and NEAR rows around it (all near q by code too, in another order than by cosine).
  const DIM = 32
  const N = 20_000
  const NEAR = 50
  const rnd = random(5)
  const q = unit(Float32Array.from({ length: DIM }, rnd))
  const away = (v: Float32Array) => (cos(v, q) > 0 ? v.map((x) => -x) : v)
  const vectors = [
    ...Array.from({ length: N }, () => away(unit(Float32Array.from({ length: DIM }, rnd)))),
    ...Array.from({ length: NEAR }, (_, i) => unit(q.map((x) => x + rnd() * (0.3 + 0.4 * i / NEAR)))),
  ]
  const filled = (codesFrom: number) => {
    const idx = createFlatIndex({ dim: DIM, codesFrom })
    vectors.forEach((v, i) => idx.upsert(i + 1, v))
    return idx
  }
  const LAST = N + NEAR
  /** Closest to q by cosine, yet across the centre from q in its 10 smallest dimensions: near rows come first by code. */
  const smallest = new Set([...q.keys()].sort((a, b) => Math.abs(q[a]) - Math.abs(q[b])).slice(0, 10))
  const farByCode = q.map((x, d) => (smallest.has(d) ? -x : x))

  it('returns the exact ranking where the codes alone rank otherwise', () => {
    const exact = filled(Infinity)
    const coded = filled(0)
    for (const idx of [exact, coded]) idx.upsert(LAST + 1, farByCode)
    const top = exact.search(q, 10)
    expect(top[0].id).toBe(LAST + 1)
    expect(coded.search(q, 10)).toEqual(top)
    expect(coded.search(q, NEAR)).toEqual(exact.search(q, NEAR))
  })

  it('keeps each row\'s code in step through upserts and removals', () => {
    const idx = filled(0)
    // A row facing away from q until now: were its code not rewritten, it would not be re-scored.
    idx.upsert(7, q)
    expect(idx.search(q, 1)[0].id).toBe(7)
    idx.remove(7)
    // The last row moves into a removed row's place: its code must move with it, or it reads as the farthest of all.
    idx.upsert(11, q.map((x) => -x))
    idx.upsert(LAST + 1, q)
    idx.remove(11)
    expect(idx.search(q, 1)[0].id).toBe(LAST + 1)
    expect(idx.search(q, 20)).toEqual(idx.search(q, LAST).slice(0, 20))
  })

  it('answers each question alike whatever the question before it (each starts its code pass where the last ended)', () => {
    // 3,000 rows within a bit or two of one direction: a question there has its 2,000 closest codes within
    // a bit or two, a question elsewhere reaches much further, and starting where the first ended finds too few.
    const centre = unit(Float32Array.from({ length: DIM }, rnd))
    const rows = [...Array.from({ length: 3000 }, () => unit(centre.map((x) => x + rnd() * 0.02))), ...vectors.slice(0, 3000)]
    const build = () => {
      const idx = createFlatIndex({ dim: DIM, codesFrom: 0 })
      rows.forEach((v, i) => idx.upsert(i + 1, v))
      return idx
    }
    const questions = [centre, q, centre, farByCode, centre.map((x) => -x), centre]
    const asked = build()
    questions.forEach((v) => expect(asked.search(v, 20)).toEqual(build().search(v, 20)))
  })

  it('restricts to the allowed posts, many or few', () => {
    const exact = filled(Infinity)
    const coded = filled(0)
    for (const share of [2, 10, 40]) {
      const some = new Set(Array.from({ length: LAST }, (_, i) => i + 1).filter((id) => id % share === 0))
      const hits = coded.search(q, 20, some)
      expect(hits.every((h) => some.has(h.id))).toBe(true)
      expect(hits).toEqual(exact.search(q, 20, some))
    }
  })
})

describe('clustered index', () => {
  // Vectors around 60 topics, as sentence vectors of a library are: large enough for the clustered path (>= 2000).
  const N = 4000
  const DIM = 64
  const rnd = random(11)
  const topics = Array.from({ length: 60 }, () => unit(Float32Array.from({ length: DIM }, rnd)))
  const vectors = Array.from({ length: N }, (_, i) => unit(topics[i % 60].map((x) => x + 0.9 * rnd() / Math.sqrt(DIM) * 4)))
  const ids = Int32Array.from({ length: N }, (_, i) => 1000 + i)
  const exact = (i: number, k: number) =>
    vectors.map((v, j) => ({ id: ids[j], s: j === i ? -Infinity : cos(vectors[i], v) })).sort((a, b) => b.s - a.s).slice(0, k)

  it('finds each post’s exact nearest posts (int8, clustered) with cosines within rounding', () => {
    const rows = rowsFor(N, DIM)
    vectors.forEach((v, i) => writeRow(rows, i, v))
    const index = buildClusteredIndex({ ids, dim: DIM, rows })
    let found = 0
    let worst = 0
    for (let i = 0; i < N; i += 37) {
      const want = exact(i, 5)
      const got = index.query(ids[i], 5, -1)
      found += got.filter((g) => want.some((w) => w.id === g.id)).length
      for (const g of got) worst = Math.max(worst, Math.abs(g.score - cos(vectors[i], vectors[g.id - 1000])))
    }
    expect(found / (Math.ceil(N / 37) * 5)).toBeGreaterThan(0.9)
    expect(worst).toBeLessThan(0.02)
  })

  it('answers the same from another thread’s view of its shared memory, and adds the shared-key bonus', () => {
    const keys = Array.from({ length: N }, (_, i) => (i === 0 || i === 60 ? ['e:sheaf'] : []))
    const flat = new Float32Array(N * DIM)
    vectors.forEach((v, i) => flat.set(v, i * DIM))
    const built = buildClusteredIndex({ ids, dim: DIM, vectors: flat, keys })
    const opened = openClusteredIndex(structuredClone(built.shared))
    expect(opened.query(ids[7], 5)).toEqual(built.query(ids[7], 5))
    const withKey = built.query(ids[0], 10, -1).find((m) => m.id === ids[60])
    expect(Math.abs(withKey!.score - (cos(vectors[0], vectors[60]) + 0.15))).toBeLessThan(0.02)
  })
})
