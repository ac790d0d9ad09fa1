import { createSpace, eachChunk, eachDot, openKernel, quantize, spaceRows, type Kernel, type VectorSpace } from './space.ts'

/**
 * Every post's vector, kept current one post at a time, searched by brute force: exact over the int8
 * rows, no partition to go stale or tune (100,000 x 512 dims scan in a few ms).
 */
export interface FlatIndex {
  readonly dim: number
  readonly size: number
  readonly simd: boolean
  has(id: number): boolean
  upsert(id: number, vector: Float32Array): void
  remove(id: number): void
  /** Up to `k` nearest posts by cosine, best first; `allowed` restricts the candidates. */
  search(query: Float32Array, k: number, allowed?: ReadonlySet<number>): Array<{ id: number; score: number }>
}

export function createFlatIndex({ dim, initialCapacity = 1024, simd = true }: { dim: number; initialCapacity?: number; simd?: boolean }): FlatIndex {
  let space: VectorSpace = createSpace(dim, initialCapacity, { simd })
  let kernel: Kernel = openKernel(space)
  let rows = spaceRows(space)
  const { rowBytes } = space
  let ids = new Int32Array(space.capacity)
  let scales = new Float32Array(space.capacity)
  const pos = new Map<number, number>()
  let size = 0
  let scores = new Float32Array(0)

  const grow = () => {
    const next = createSpace(dim, space.capacity * 2, { simd })
    spaceRows(next).set(rows.subarray(0, size * rowBytes))
    space = next
    kernel = openKernel(space)
    rows = spaceRows(space)
    const nextIds = new Int32Array(space.capacity)
    nextIds.set(ids)
    ids = nextIds
    const nextScales = new Float32Array(space.capacity)
    nextScales.set(scales)
    scales = nextScales
  }

  /** Cosine of the query (already in the kernel's query row, with factor `qs`) with every row. */
  const scoreAll = (qs: number, allowed?: ReadonlySet<number>): Float32Array => {
    if (scores.length < size) scores = new Float32Array(space.capacity)
    eachDot(kernel, kernel.queryAt, space.rowsAt, size, rowBytes, (i, d) => {
      scores[i] = allowed && !allowed.has(ids[i]) ? -Infinity : d * scales[i] * qs
    })
    return scores
  }

  return {
    dim,
    get size() {
      return size
    },
    get simd() {
      return kernel.simd
    },
    has: (id) => pos.has(id),
    upsert(id, vector) {
      if (vector.length !== dim) throw new Error(`vector index: expected ${dim} dims, got ${vector.length}`)
      let p = pos.get(id)
      if (p === undefined) {
        if (size === space.capacity) grow()
        p = size++
        pos.set(id, p)
        ids[p] = id
        rows.fill(0, p * rowBytes, (p + 1) * rowBytes)
      }
      scales[p] = quantize(vector, rows, p * rowBytes)
    },
    remove(id) {
      const p = pos.get(id)
      if (p === undefined) return
      const last = size - 1
      if (p !== last) {
        rows.copyWithin(p * rowBytes, last * rowBytes, (last + 1) * rowBytes)
        ids[p] = ids[last]
        scales[p] = scales[last]
        pos.set(ids[p], p)
      }
      pos.delete(id)
      size = last
    },
    search(query, k, allowed) {
      if (size === 0 || k <= 0) return []
      kernel.query.fill(0)
      const qs = quantize(query, kernel.query, 0)
      if (qs === 0) return []
      return k > 256 ? topMany(scoreAll(qs, allowed), k) : topFew(qs, k, allowed)
    },
  }

  /**
   * A small sorted buffer of the best k (k is at most a few hundred), filled straight from the
   * kernel's results: most rows fall below its floor; the rest are placed by binary search and a
   * native shift (array splices cost ~1.5 ms at 100,000 rows).
   */
  function topFew(qs: number, k: number, allowed?: ReadonlySet<number>) {
    const topScores = new Float32Array(k)
    const topIds = new Int32Array(k)
    let n = 0
    let floor = -Infinity
    eachChunk(kernel, kernel.queryAt, space.rowsAt, size, rowBytes, (from, len, out) => {
      for (let j = 0; j < len; j++) {
        const i = from + j
        const score = Math.fround(out[j] * scales[i] * qs)
        if (score <= floor || (allowed && !allowed.has(ids[i]))) continue
        let lo = 0
        let hi = n
        while (lo < hi) {
          const mid = (lo + hi) >> 1
          if (topScores[mid] >= score) lo = mid + 1
          else hi = mid
        }
        if (n < k) n++
        topScores.copyWithin(lo + 1, lo, n - 1)
        topIds.copyWithin(lo + 1, lo, n - 1)
        topScores[lo] = score
        topIds[lo] = ids[i]
        if (n === k) floor = topScores[k - 1]
      }
    })
    return Array.from({ length: n }, (_, i) => ({ id: topIds[i], score: topScores[i] }))
  }

  /** Many neighbours: the k-th best score by quickselect, then only the rows above it are sorted. */
  function topMany(s: Float32Array, k: number) {
    const threshold = size <= k ? -Infinity : kthLargest(s.slice(0, size), k)
    const hits: Array<{ id: number; score: number }> = []
    for (let i = 0; i < size; i++) if (s[i] >= threshold && s[i] !== -Infinity) hits.push({ id: ids[i], score: s[i] })
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
