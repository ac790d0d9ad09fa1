import { createDotKernel, type DotKernel } from './dot-kernel.ts'

/**
 * Sentence vectors of every post, int8-quantised with one scale per row (10 MB at 100k x 100 dims),
 * searched by brute force: exact over the quantised vectors, no index to go stale or tune.
 */
export interface VectorIndex {
  readonly dim: number
  readonly size: number
  readonly simd: boolean
  has(id: number): boolean
  upsert(id: number, vector: Float32Array): void
  remove(id: number): void
  /** Up to `k` nearest posts by cosine, best first; `allowed` restricts the candidates. */
  search(query: Float32Array, k: number, allowed?: ReadonlySet<number>): Array<{ id: number; score: number }>
}

const quantize = (v: Float32Array, into: Int8Array, at: number): number => {
  let norm = 0
  for (let d = 0; d < v.length; d++) norm += v[d] * v[d]
  norm = Math.sqrt(norm)
  let max = 0
  for (let d = 0; d < v.length; d++) max = Math.max(max, Math.abs(v[d]))
  if (norm === 0 || max === 0) {
    into.fill(0, at, at + v.length)
    return 0
  }
  const s = max / 127
  for (let d = 0; d < v.length; d++) into[at + d] = Math.round(v[d] / s)
  return s / norm
}

export function createVectorIndex({ dim, kernel = createDotKernel(), initialCapacity = 1024 }: {
  dim: number
  kernel?: DotKernel
  initialCapacity?: number
}): VectorIndex {
  const rowBytes = Math.ceil(dim / 16) * 16
  let capacity = initialCapacity
  let views = kernel.reserve(capacity, rowBytes)
  let ids = new Int32Array(capacity)
  let scales = new Float32Array(capacity)
  const pos = new Map<number, number>()
  let size = 0
  let scratch = new Float32Array(0)

  const grow = () => {
    capacity *= 2
    views = kernel.reserve(capacity, rowBytes)
    const nextIds = new Int32Array(capacity)
    nextIds.set(ids)
    ids = nextIds
    const nextScales = new Float32Array(capacity)
    nextScales.set(scales)
    scales = nextScales
  }

  return {
    dim,
    get size() {
      return size
    },
    simd: kernel.simd,
    has: (id) => pos.has(id),
    upsert(id, vector) {
      if (vector.length !== dim) throw new Error(`vector index: expected ${dim} dims, got ${vector.length}`)
      let p = pos.get(id)
      if (p === undefined) {
        if (size === capacity) grow()
        p = size++
        pos.set(id, p)
        ids[p] = id
        views.matrix.fill(0, p * rowBytes, (p + 1) * rowBytes)
      }
      scales[p] = quantize(vector, views.matrix, p * rowBytes)
    },
    remove(id) {
      const p = pos.get(id)
      if (p === undefined) return
      const last = size - 1
      if (p !== last) {
        views.matrix.copyWithin(p * rowBytes, last * rowBytes, (last + 1) * rowBytes)
        ids[p] = ids[last]
        scales[p] = scales[last]
        pos.set(ids[p], p)
      }
      pos.delete(id)
      size = last
    },
    search(query, k, allowed) {
      if (size === 0 || k <= 0) return []
      views.query.fill(0)
      const qs = quantize(query, views.query, 0)
      if (qs === 0) return []
      kernel.run(size, rowBytes)
      const out = views.out
      if (k > 256) return topMany(out, k, qs, allowed)
      // A small sorted buffer of the best k: k is <= a few hundred, so insertion beats a heap here.
      const topIds: number[] = []
      const topScores: number[] = []
      let floor = -Infinity
      for (let i = 0; i < size; i++) {
        const score = out[i] * scales[i] * qs
        if (score <= floor) continue
        if (allowed && !allowed.has(ids[i])) continue
        let j = topScores.length
        while (j > 0 && topScores[j - 1] < score) j--
        topScores.splice(j, 0, score)
        topIds.splice(j, 0, ids[i])
        if (topScores.length > k) {
          topScores.pop()
          topIds.pop()
        }
        if (topScores.length === k) floor = topScores[k - 1]
      }
      return topIds.map((id, i) => ({ id, score: topScores[i] }))
    },
  }

  /** Many neighbours: the k-th best score by quickselect, then only the rows above it are sorted. */
  function topMany(out: Int32Array, k: number, qs: number, allowed?: ReadonlySet<number>) {
    if (scratch.length < size) scratch = new Float32Array(capacity)
    const scores = scratch
    for (let i = 0; i < size; i++) scores[i] = allowed && !allowed.has(ids[i]) ? -Infinity : out[i] * scales[i] * qs
    const threshold = size <= k ? -Infinity : kthLargest(scores.slice(0, size), k)
    const hits: Array<{ id: number; score: number }> = []
    for (let i = 0; i < size; i++) {
      const s = scores[i]
      if (s >= threshold && s !== -Infinity) hits.push({ id: ids[i], score: s })
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, k)
  }
}

function kthLargest(a: Float32Array, k: number): number {
  let lo = 0
  let hi = a.length - 1
  const target = k - 1
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i] > pivot) i++
      while (a[j] < pivot) j--
      if (i <= j) {
        const t = a[i]
        a[i] = a[j]
        a[j] = t
        i++
        j--
      }
    }
    if (target <= j) hi = j
    else if (target >= i) lo = i
    else break
  }
  return a[target]
}
