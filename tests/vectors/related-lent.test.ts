import { describe, expect, it } from 'vitest'
import { spaceRows } from '../../src-main/vectors/space.ts'
import { buildClusteredIndex, clusteredIndexBytes, createFlatIndex, openClusteredIndex, type FlatIndex } from '../../src-main/vectors/index.ts'

// The related-post index reading search's rows (lent by the flat index) instead of a copy of its own.

const random = (seed: number) => () => ((seed = (seed * 16807) % 2147483647) / 2147483647) - 0.5
const unit = (v: Float32Array) => {
  const n = Math.hypot(...v)
  return v.map((x) => x / n)
}

/** `n` vectors around 60 topics, as a library's sentence vectors are; ids from 1000. */
function library(n: number, dim: number, seed = 11) {
  const rnd = random(seed)
  const topics = Array.from({ length: 60 }, () => unit(Float32Array.from({ length: dim }, rnd)))
  const vectors = Array.from({ length: n }, (_, i) => unit(topics[i % 60].map((x) => x + 3.6 * rnd() / Math.sqrt(dim))))
  const ids = Int32Array.from({ length: n }, (_, i) => 1000 + i)
  // A few keys shared by small groups of posts (entities, tags), and one too common to count.
  const keys = Array.from({ length: n }, (_, i) => [...(i % 7 === 0 ? [`e:k${i % 91}`] : []), ...(i % 2 === 0 ? ['t:common'] : [])])
  return { vectors, ids, keys }
}

/** A flat index holding the vectors in another order than the ids' (as search reads them), with a removed post's row reused. */
function searchIndex(vectors: Float32Array[], ids: Int32Array): FlatIndex {
  const flat = createFlatIndex({ dim: vectors[0].length, initialCapacity: vectors.length + 16 })
  flat.upsert(1, vectors[0])
  for (let i = vectors.length - 1; i >= 0; i--) flat.upsert(ids[i], vectors[i])
  flat.remove(1)
  return flat
}

const packed = (vectors: Float32Array[]) => {
  const out = new Float32Array(vectors.length * vectors[0].length)
  vectors.forEach((v, i) => out.set(v, i * v.length))
  return out
}

describe('related-post index over search’s rows', () => {
  it('holds no copy of the vectors: it reads the very memory search lent it', () => {
    const { vectors, ids, keys } = library(4000, 512)
    const flat = searchIndex(vectors, ids)
    const loan = flat.lend(ids)
    const lent = buildClusteredIndex({ ids, dim: 512, lent: loan.lent, keys })
    const own = buildClusteredIndex({ ids, dim: 512, vectors: packed(vectors), keys })
    expect(lent.shared.space.buffer).toBe(loan.lent.space.buffer)
    expect(lent.shared.lent).toBe(true)
    // Its own memory is less than its own copy's by at least the int8 rows (4000 x 512 bytes).
    expect(clusteredIndexBytes(own.shared) - clusteredIndexBytes(lent.shared)).toBeGreaterThanOrEqual(4000 * 512)
    expect(clusteredIndexBytes(lent.shared)).toBeLessThan(4000 * 512)
  })

  it('answers every post exactly as with its own copy, here and from another thread’s view', () => {
    const { vectors, ids, keys } = library(4000, 64)
    const flat = searchIndex(vectors, ids)
    const lent = buildClusteredIndex({ ids, dim: 64, lent: flat.lend(ids).lent, keys })
    const own = buildClusteredIndex({ ids, dim: 64, vectors: packed(vectors), keys })
    const opened = openClusteredIndex(structuredClone(lent.shared))
    let differing = 0
    for (const id of ids) {
      const want = own.query(id, 5)
      if (JSON.stringify(lent.query(id, 5)) !== JSON.stringify(want) || JSON.stringify(opened.query(id, 5, -1)) !== JSON.stringify(own.query(id, 5, -1))) differing++
    }
    expect(differing).toBe(0)
  })

  it('answers as a brute-force scan of the same int8 rows does (a library small enough to be compared whole)', () => {
    const n = 1500
    const { vectors, ids, keys } = library(n, 64, 5)
    const flat = searchIndex(vectors, ids)
    const { lent } = flat.lend(ids)
    const index = buildClusteredIndex({ ids, dim: 64, lent, keys })
    const rows = spaceRows(lent.space)
    const rb = lent.space.rowBytes
    const dot = (a: number, b: number) => {
      let s = 0
      for (let d = 0; d < 64; d++) s += rows[a * rb + d] * rows[b * rb + d]
      return s
    }
    // Every shared key adds to the score (a common one only finds no candidates).
    const bonus = (i: number, j: number) => Math.min(0.3, keys[i].filter((k) => keys[j].includes(k)).length * 0.15)
    const reference = (i: number, k: number, minScore: number) => {
      const a = lent.rows[i]
      const scored = [...ids.keys()].filter((j) => j !== i).map((j) => ({ j, s: dot(a, lent.rows[j]) * lent.scales[a] * lent.scales[lent.rows[j]] + bonus(i, j) }))
        .sort((x, y) => y.s - x.s).slice(0, k)
      const strong = scored.filter((x) => x.s >= minScore)
      return (strong.length ? strong : scored.slice(0, 3)).map((x) => ({ id: ids[x.j], score: Math.round(x.s * 1000) / 1000 }))
    }
    for (let i = 0; i < n; i += 7) {
      expect(index.query(ids[i], 5)).toEqual(reference(i, 5, 0.5))
      expect(index.query(ids[i], 8, -1)).toEqual(reference(i, 8, -1))
    }
  })
})

describe('flat index loans', () => {
  const { vectors, ids } = library(300, 64, 3)
  const extra = library(20, 64, 9).vectors

  it('leaves lent rows as they were: a change to one moves search to a copy of its own, new posts go after them', () => {
    const flat = searchIndex(vectors, ids)
    const loan = flat.lend(ids)
    const snapshot = () => Array.from(loan.lent.rows, (r) => Array.from(spaceRows(loan.lent.space).subarray(r * 64, (r + 1) * 64)).join() + loan.lent.scales[r])
    const before = snapshot()
    // New posts: added after the lent rows, in the same memory.
    flat.upsert(5000, extra[0])
    expect(flat.lend([5000]).lent.space.buffer).toBe(loan.lent.space.buffer)
    // A lent post rewritten, another removed: the rows lent stay as they were.
    flat.upsert(ids[10], extra[1])
    flat.remove(ids[20])
    expect(snapshot()).toEqual(before)
    expect(flat.lend([ids[0]]).lent.space.buffer).not.toBe(loan.lent.space.buffer)
    // And search answers from its own copy as a fresh index of the same posts does.
    const fresh = createFlatIndex({ dim: 64 })
    ids.forEach((id, i) => id !== ids[20] && fresh.upsert(id, id === ids[10] ? extra[1] : vectors[i]))
    fresh.upsert(5000, extra[0])
    for (const q of [extra[1], vectors[3], extra[5]]) expect(flat.search(q, 10)).toEqual(fresh.search(q, 10))
  })

  it('changes rows in place again once every loan is given back', () => {
    const flat = searchIndex(vectors, ids)
    const first = flat.lend(ids)
    const second = flat.lend(ids.subarray(0, 10))
    first.giveBack()
    first.giveBack()
    flat.remove(ids[299])
    expect(flat.lend([ids[0]]).lent.space.buffer).not.toBe(first.lent.space.buffer) // the second loan was still out

    const again = searchIndex(vectors, ids)
    const loan = again.lend(ids)
    loan.giveBack()
    again.remove(ids[5])
    again.upsert(ids[6], extra[2])
    expect(again.lend([ids[0]]).lent.space.buffer).toBe(loan.lent.space.buffer)
    second.giveBack()
  })
})
