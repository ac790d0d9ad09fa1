import { createSpace, eachChunk, openKernel, quantize, spaceRows, type Kernel, type VectorSpace } from './space.ts'
import { bestK } from './top-k.ts'

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

/** Allowed posts under 1 in FEW of the rows are scored alone rather than found in a scan of every row. */
const FEW = 16

export function createFlatIndex({ dim, initialCapacity = 1024, simd = true }: { dim: number; initialCapacity?: number; simd?: boolean }): FlatIndex {
  let space: VectorSpace = createSpace(dim, initialCapacity, { simd })
  let kernel: Kernel = openKernel(space)
  let rows = spaceRows(space)
  const { rowBytes } = space
  let ids = new Int32Array(space.capacity)
  let scales = new Float32Array(space.capacity)
  const pos = new Map<number, number>()
  let size = 0

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
      return allowed && allowed.size * FEW < size ? nearestAmong(qs, k, allowed) : nearest(qs, k, allowed)
    },
  }

  /** A few allowed posts (an author's, a category's): their rows alone, one kernel call each, in row order. */
  function nearestAmong(qs: number, k: number, allowed: ReadonlySet<number>) {
    const best = bestK(k)
    const at: number[] = []
    for (const id of allowed) {
      const p = pos.get(id)
      if (p !== undefined) at.push(p)
    }
    for (const p of at.sort((a, b) => a - b)) {
      kernel.dots(kernel.queryAt, space.rowsAt + p * rowBytes, 1, rowBytes, kernel.outAt)
      best.push(Math.fround(kernel.out[0] * scales[p] * qs), p)
    }
    return best.sorted().map((b) => ({ id: ids[b.row], score: b.score }))
  }

  /** The best k rows by cosine, taken straight from the kernel's results: most rows fall below the floor. */
  function nearest(qs: number, k: number, allowed?: ReadonlySet<number>) {
    const best = bestK(k)
    const rowScales = scales
    const rowIds = ids
    // The floor in scaled-dot units (a hair lower, for rounding), so most rows cost one multiply and one comparison.
    const dotFloor = () => best.floor / qs - Math.abs(best.floor / qs) * 1e-6
    eachChunk(kernel, kernel.queryAt, space.rowsAt, size, rowBytes, (from, len, out) => {
      let floor = dotFloor()
      for (let j = 0; j < len; j++) {
        const d = out[j] * rowScales[from + j]
        if (d <= floor) continue
        const i = from + j
        const score = Math.fround(d * qs)
        if (score <= best.floor || (allowed && !allowed.has(rowIds[i]))) continue
        best.push(score, i)
        floor = dotFloor()
      }
    })
    return best.sorted().map((b) => ({ id: ids[b.row], score: b.score }))
  }
}
