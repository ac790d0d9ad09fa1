/**
 * Related posts at library scale. relatedByVectors (ai/local) compares every pair, fine for small
 * sets; here small libraries are compared exhaustively too, and large ones through an inverted-file
 * index: k-means (two levels, so building stays linear) groups the vectors, which are stored cluster
 * by cluster, and a query scans the clusters nearest to it (contiguous memory) plus the posts that
 * share an entity or tag with it. The score is the same everywhere: cosine + 0.15 per shared entity,
 * at most +0.3.
 *
 * The index is plain typed arrays over shared memory: one worker builds it and the others open the
 * same memory (openRelatedIndex), so a job holds one copy whatever the number of workers. Dot products
 * run in a WebAssembly SIMD kernel (related-space.ts).
 */
import { CHUNK, createRelatedSpace, openKernel, spaceCentroids, spaceVectors, type DotsFn, type RelatedSpace } from './related-space.ts'

export { spaceVectors, type RelatedSpace } from './related-space.ts'

const ENTITY_WEIGHT = 0.15
const MAX_ENTITY_BONUS = 0.3
const EXHAUSTIVE_BELOW = 2000
/** Keys shared by more posts than this say little ("ai") and would flood the candidates. */
const MAX_POSTING = 200
/** Posts found through shared keys, at most, per query. */
const MAX_KEY_CANDIDATES = 750
/** Rows scanned per query: whole clusters, nearest first, until this many (or MAX_PROBES clusters). */
const SCAN_ROWS = 2500
const MAX_PROBES = 24
/** Posts per cluster, on average. */
const CLUSTER_SIZE = 256
const COARSE = 16

export interface RelatedIndexInput {
  ids: ArrayLike<number>
  dim: number
  /** Unit vectors, ids[i] at [i*dim, (i+1)*dim)... */
  vectors?: Float32Array
  /**
   * ...or already written into a space from relatedSpaceFor(ids.length, dim) (row i at i * stride):
   * the build takes it over and reorders it in place, so the vectors are held once.
   */
  space?: RelatedSpace
  /** Lowercased entity/tag keys per post... */
  keys?: string[][]
  /** ...or the same already numbered: post i's keys are keyIds[keyOffsets[i] .. keyOffsets[i+1]). */
  keyOffsets?: Int32Array
  keyIds?: Int32Array
}

/** The built index: typed arrays only (SharedArrayBuffer-backed), so it can be posted to another worker without a copy. */
export interface SharedRelatedIndex {
  n: number
  dim: number
  /** The vectors (row r at r * stride) and the centroids. */
  space: RelatedSpace
  /** Post id of each row; rows are stored cluster by cluster. */
  rowIds: Int32Array
  /** Post ids ascending, and the row of each (lookup by binary search). */
  sortedIds: Int32Array
  sortedRows: Int32Array
  /** Rows of cluster c: [clusterOffsets[c], clusterOffsets[c+1]); centroid c is row c of the space's centroids. */
  clusterOffsets: Int32Array
  /** Keys of row r (ascending): keyIds[keyOffsets[r] .. keyOffsets[r+1]). */
  keyOffsets: Int32Array
  keyIds: Int32Array
  /** Rows holding key k, ascending (empty for keys held by more than MAX_POSTING posts). */
  postingOffsets: Int32Array
  postings: Int32Array
}

export interface RelatedIndex {
  readonly shared: SharedRelatedIndex
  query(id: number, k?: number, minScore?: number): Array<{ id: number; score: number }>
}

function mulberry32(seed: number) {
  return () => {
    seed |= 0
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const sharedInt32 = (n: number) => new Int32Array(new SharedArrayBuffer(Math.max(1, n) * 4), 0, n)

/** Centroid rows a space needs for `n` posts: the clusters, plus scratch rows for the coarse level. */
const centroidCapacity = (n: number) => (n >= EXHAUSTIVE_BELOW ? Math.round(n / CLUSTER_SIZE) + 2 * COARSE + 1 : 0)

/** Where to write `n` vectors of `dim` for buildRelatedIndex({ space }): row i at i * stride of spaceVectors(). */
export const relatedSpaceFor = (n: number, dim: number, opts?: { simd?: boolean }): RelatedSpace => createRelatedSpace(n, dim, centroidCapacity(n), opts)

/** Dot product in double precision (the final scores; the kernel's single-precision sums only rank). */
function dot(a: Float32Array, ai: number, b: Float32Array, bi: number, dim: number): number {
  let s = 0
  for (let d = 0; d < dim; d++) s += a[ai + d] * b[bi + d]
  return s
}

interface Kernel {
  dots: DotsFn
  out: Float32Array
  outAt: number
}

/** Dots of the row at byte `q` with `count` rows from byte `m`, CHUNK at a time; `visit(i, dot)` for each. */
function eachDot(k: Kernel, q: number, m: number, count: number, rowBytes: number, visit: (i: number, d: number) => void): void {
  for (let from = 0; from < count; from += CHUNK) {
    const len = Math.min(CHUNK, count - from)
    k.dots(q, m + from * rowBytes, len, rowBytes, k.outAt)
    const out = k.out
    for (let i = 0; i < len; i++) visit(from + i, out[i])
  }
}

/** Index of the centroid nearest to the row at byte `q` among `count` from byte `m` (largest dot). */
function nearest(k: Kernel, q: number, m: number, count: number, rowBytes: number): number {
  let best = 0
  let bestDot = -Infinity
  eachDot(k, q, m, count, rowBytes, (i, d) => {
    if (d > bestDot) {
      bestDot = d
      best = i
    }
  })
  return best
}

/**
 * Spherical k-means over the given rows (a strided sample trains it): `k` unit centroids written
 * into `cent` from row `first`. Deterministic for the same input.
 */
function kmeans(space: RelatedSpace, kernel: Kernel, rows: Int32Array, k: number, cent: Float32Array, centAt: number, first: number, rand: () => number, iterations: number): void {
  const { stride } = space
  const vectors = spaceVectors(space)
  const rowBytes = stride * 4
  const m = rows.length
  const sampleSize = Math.min(m, Math.max(k * 40, 2048))
  const step = m / sampleSize
  const sample = new Int32Array(sampleSize)
  for (let i = 0; i < sampleSize; i++) sample[i] = rows[Math.floor(i * step)]
  const seed = (c: number) => {
    const r = sample[Math.floor(rand() * sampleSize)]
    cent.set(vectors.subarray(r * stride, (r + 1) * stride), (first + c) * stride)
  }
  for (let c = 0; c < k; c++) seed(c)
  const sums = new Float64Array(k * stride)
  const counts = new Int32Array(k)
  const centBytes = centAt + first * rowBytes
  for (let it = 0; it < iterations; it++) {
    sums.fill(0)
    counts.fill(0)
    for (let i = 0; i < sampleSize; i++) {
      const r = sample[i]
      const c = nearest(kernel, space.vectorsAt + r * rowBytes, centBytes, k, rowBytes)
      counts[c]++
      const o = c * stride
      const v = r * stride
      for (let d = 0; d < stride; d++) sums[o + d] += vectors[v + d]
    }
    for (let c = 0; c < k; c++) {
      // An empty cluster starts again from a random sample row.
      if (counts[c] === 0) {
        seed(c)
        continue
      }
      let norm = 0
      for (let d = 0; d < stride; d++) norm += sums[c * stride + d] * sums[c * stride + d]
      norm = Math.sqrt(norm) || 1
      const o = (first + c) * stride
      for (let d = 0; d < stride; d++) cent[o + d] = sums[c * stride + d] / norm
    }
  }
}

/**
 * Cluster of every row: two-level k-means (COARSE cells, then each cell split in proportion to its
 * size), so building costs n x (COARSE + a cell's share) dot products instead of n x clusters.
 * The clusters' centroids end in the space's centroid rows [0, count).
 */
function cluster(space: RelatedSpace, kernel: Kernel, n: number): { clusterOf: Int32Array; count: number } {
  const { stride } = space
  const rowBytes = stride * 4
  const total = Math.max(1, Math.round(n / CLUSTER_SIZE))
  const rand = mulberry32(42)
  const cent = spaceCentroids(space)
  const coarseK = Math.min(COARSE, total)
  // The coarse centroids go at the end of the centroid rows (scratch), the clusters' at the start.
  const coarseFirst = space.centroidRows - coarseK
  kmeans(space, kernel, Int32Array.from({ length: n }, (_, i) => i), coarseK, cent, space.centroidsAt, coarseFirst, rand, 8)
  const cellOf = new Int32Array(n)
  const cellSize = new Int32Array(coarseK)
  const coarseBytes = space.centroidsAt + coarseFirst * rowBytes
  for (let i = 0; i < n; i++) cellSize[(cellOf[i] = nearest(kernel, space.vectorsAt + i * rowBytes, coarseBytes, coarseK, rowBytes))]++
  const members = Array.from({ length: coarseK }, (_, c) => new Int32Array(cellSize[c]))
  const fill = new Int32Array(coarseK)
  for (let i = 0; i < n; i++) members[cellOf[i]][fill[cellOf[i]]++] = i
  const fineK = Array.from(cellSize, (s) => (s === 0 ? 0 : Math.max(1, Math.round((total * s) / n))))
  const clusterOf = new Int32Array(n)
  let first = 0
  for (let c = 0; c < coarseK; c++) {
    if (fineK[c] === 0) continue
    kmeans(space, kernel, members[c], fineK[c], cent, space.centroidsAt, first, rand, 6)
    const firstBytes = space.centroidsAt + first * rowBytes
    for (const i of members[c]) clusterOf[i] = first + nearest(kernel, space.vectorsAt + i * rowBytes, firstBytes, fineK[c], rowBytes)
    first += fineK[c]
  }
  cent.fill(0, first * stride)
  return { clusterOf, count: first }
}

/** Puts row order[r] at row r, in place (each permutation cycle followed once). */
function permuteRows(vectors: Float32Array, order: Int32Array, stride: number): void {
  const done = new Uint8Array(order.length)
  const tmp = new Float32Array(stride)
  for (let start = 0; start < order.length; start++) {
    if (done[start] || order[start] === start) continue
    tmp.set(vectors.subarray(start * stride, (start + 1) * stride))
    let r = start
    for (;;) {
      done[r] = 1
      const from = order[r]
      if (from === start) {
        vectors.set(tmp, r * stride)
        break
      }
      vectors.copyWithin(r * stride, from * stride, (from + 1) * stride)
      r = from
    }
  }
}

export function buildRelatedIndex(input: RelatedIndexInput): RelatedIndex {
  const { dim } = input
  const n = input.ids.length
  // The vectors become the index's own shared memory: taken over when written there already, else copied in.
  let space = input.space
  if (!space || space.rows < n || space.centroidRows < centroidCapacity(n)) {
    const packed = input.vectors ?? new Float32Array(0)
    space = relatedSpaceFor(n, dim)
    const v = spaceVectors(space)
    for (let i = 0; i < n; i++) v.set(packed.subarray(i * dim, (i + 1) * dim), i * space.stride)
  }
  const { stride } = space
  const kernel = openKernel(space)

  // Keys: numbered, and sorted within each post (sharedKeys() merges two sorted lists).
  let inOffsets = input.keyOffsets
  let inKeys = input.keyIds
  if (!inOffsets || !inKeys) {
    const numbered = new Map<string, number>()
    const lists = (input.keys ?? []).map((ks) => ks.map((k) => {
      let v = numbered.get(k)
      if (v === undefined) numbered.set(k, (v = numbered.size))
      return v
    }))
    inOffsets = new Int32Array(n + 1)
    for (let i = 0; i < n; i++) inOffsets[i + 1] = inOffsets[i] + (lists[i]?.length ?? 0)
    inKeys = new Int32Array(inOffsets[n])
    for (let i = 0; i < n; i++) if (lists[i]) inKeys.set(lists[i], inOffsets[i])
  }

  // Rows in cluster order.
  let clusterOffsets: Int32Array
  const order = new Int32Array(n)
  if (n >= EXHAUSTIVE_BELOW) {
    const c = cluster(space, kernel, n)
    clusterOffsets = sharedInt32(c.count + 1)
    for (let i = 0; i < n; i++) clusterOffsets[c.clusterOf[i] + 1]++
    for (let k = 0; k < c.count; k++) clusterOffsets[k + 1] += clusterOffsets[k]
    const next = clusterOffsets.slice(0, c.count)
    for (let i = 0; i < n; i++) order[next[c.clusterOf[i]]++] = i
  } else {
    clusterOffsets = sharedInt32(2)
    clusterOffsets[1] = n
    for (let i = 0; i < n; i++) order[i] = i
  }
  permuteRows(spaceVectors(space), order, stride)

  const rowIds = sharedInt32(n)
  for (let r = 0; r < n; r++) rowIds[r] = input.ids[order[r]]
  const byId = Int32Array.from({ length: n }, (_, r) => r).sort((a, b) => rowIds[a] - rowIds[b])
  const sortedIds = sharedInt32(n)
  const sortedRows = sharedInt32(n)
  for (let i = 0; i < n; i++) {
    sortedRows[i] = byId[i]
    sortedIds[i] = rowIds[byId[i]]
  }

  const keyOffsets = sharedInt32(n + 1)
  for (let r = 0; r < n; r++) keyOffsets[r + 1] = keyOffsets[r] + (inOffsets[order[r] + 1] - inOffsets[order[r]])
  const keyIds = sharedInt32(keyOffsets[n])
  let maxKey = -1
  for (let r = 0; r < n; r++) {
    const list = inKeys.slice(inOffsets[order[r]], inOffsets[order[r] + 1]).sort()
    // A key listed twice counts once; the freed places at the end hold -1.
    let w = keyOffsets[r]
    for (let x = 0; x < list.length; x++) {
      if (x > 0 && list[x] === list[x - 1]) continue
      keyIds[w++] = list[x]
      if (list[x] > maxKey) maxKey = list[x]
    }
    for (; w < keyOffsets[r + 1]; w++) keyIds[w] = -1
  }
  const keyCount = maxKey + 1
  const postingCount = new Int32Array(keyCount)
  for (let x = 0; x < keyIds.length; x++) if (keyIds[x] >= 0) postingCount[keyIds[x]]++
  const postingOffsets = sharedInt32(keyCount + 1)
  for (let k = 0; k < keyCount; k++) postingOffsets[k + 1] = postingOffsets[k] + (postingCount[k] <= MAX_POSTING ? postingCount[k] : 0)
  const postings = sharedInt32(postingOffsets[keyCount])
  const fill = postingOffsets.slice(0, keyCount)
  for (let r = 0; r < n; r++) {
    for (let x = keyOffsets[r]; x < keyOffsets[r + 1]; x++) {
      const k = keyIds[x]
      if (k >= 0 && postingCount[k] <= MAX_POSTING) postings[fill[k]++] = r
    }
  }

  return openRelatedIndex({ n, dim, space, rowIds, sortedIds, sortedRows, clusterOffsets, keyOffsets, keyIds, postingOffsets, postings }, kernel)
}

/** Queries over an index built elsewhere (another worker's shared memory). */
export function openRelatedIndex(shared: SharedRelatedIndex, kernel: Kernel = openKernel(shared.space)): RelatedIndex {
  const { n, dim, space, rowIds, sortedIds, sortedRows, clusterOffsets, keyOffsets, keyIds, postingOffsets, postings } = shared
  const { stride } = space
  const rowBytes = stride * 4
  const vectors = spaceVectors(space)
  const clusters = clusterOffsets.length - 1
  const seen = new Int32Array(n)
  let stamp = 0
  const sims = new Float64Array(clusters)
  const taken = new Uint8Array(clusters)
  const candidates = new Int32Array(MAX_KEY_CANDIDATES)

  const rowOf = (id: number): number => {
    let lo = 0
    let hi = n - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const v = sortedIds[mid]
      if (v === id) return sortedRows[mid]
      if (v < id) lo = mid + 1
      else hi = mid - 1
    }
    return -1
  }
  /** Keys rows a and b share (both lists ascending; -1 pads the end). */
  const sharedKeys = (a: number, b: number): number => {
    let i = keyOffsets[a]
    let j = keyOffsets[b]
    const ie = keyOffsets[a + 1]
    const je = keyOffsets[b + 1]
    let c = 0
    while (i < ie && j < je) {
      const x = keyIds[i]
      const y = keyIds[j]
      if (x < 0 || y < 0) break
      if (x === y) {
        c++
        i++
        j++
      } else if (x < y) i++
      else j++
    }
    return c
  }

  return {
    shared,
    query(id, k = 5, minScore = 0.5) {
      const r = rowOf(id)
      if (r < 0 || n < 2) return []
      if (++stamp === 0x7fffffff) {
        seen.fill(0)
        stamp = 1
      }
      const q = space.vectorsAt + r * rowBytes
      const hasKeys = keyOffsets[r + 1] > keyOffsets[r] && keyIds[keyOffsets[r]] >= 0
      const bonus = (j: number) => (hasKeys ? Math.min(MAX_ENTITY_BONUS, sharedKeys(r, j) * ENTITY_WEIGHT) : 0)
      // The best `pool` rows by the kernel's scores, best first; the entity bonus (at most +0.3) is only
      // worked out when it could matter. A few more than k are kept so the exact rescoring below can reorder them.
      const pool = k + 3
      const bestRows: number[] = []
      const bestScores: number[] = []
      let floor = -Infinity
      const offer = (j: number, s: number) => {
        if (bestRows.length === pool) {
          bestRows.pop()
          bestScores.pop()
        }
        let p = bestScores.length
        while (p > 0 && bestScores[p - 1] < s) p--
        bestRows.splice(p, 0, j)
        bestScores.splice(p, 0, s)
        if (bestRows.length === pool) floor = bestScores[pool - 1]
      }
      seen[r] = stamp

      // Nearest clusters first, whole, until enough rows were scanned.
      if (clusters > 1) eachDot(kernel, q, space.centroidsAt, clusters, rowBytes, (c, d) => {
        sims[c] = d
        taken[c] = 0
      })
      else taken[0] = 0
      let scanned = 0
      for (let probe = 0; probe < MAX_PROBES && scanned < SCAN_ROWS && probe < clusters; probe++) {
        let c = -1
        for (let x = 0; x < clusters; x++) if (!taken[x] && (c < 0 || sims[x] > sims[c])) c = x
        taken[c] = 1
        const start = clusterOffsets[c]
        const count = clusterOffsets[c + 1] - start
        eachDot(kernel, q, space.vectorsAt + start * rowBytes, count, rowBytes, (i, d) => {
          const j = start + i
          if (seen[j] === stamp) return
          seen[j] = stamp
          if (d + MAX_ENTITY_BONUS <= floor) return
          const s = d + bonus(j)
          if (s > floor) offer(j, s)
        })
        scanned += count
      }

      // Posts sharing a key (not a common one) with this one, wherever their cluster.
      if (hasKeys) {
        let m = 0
        for (let x = keyOffsets[r]; x < keyOffsets[r + 1] && m < MAX_KEY_CANDIDATES; x++) {
          const key = keyIds[x]
          if (key < 0) break
          for (let p = postingOffsets[key]; p < postingOffsets[key + 1] && m < MAX_KEY_CANDIDATES; p++) {
            const j = postings[p]
            if (seen[j] === stamp) continue
            seen[j] = stamp
            candidates[m++] = j
          }
        }
        for (let x = 0; x < m; x++) {
          const j = candidates[x]
          const b = bonus(j)
          // Unit vectors: the cosine is at most 1.
          if (1 + b <= floor) continue
          const s = dot(vectors, r * stride, vectors, j * stride, dim) + b
          if (s > floor) offer(j, s)
        }
      }

      // Final scores in double precision, then the best k.
      const best = bestRows.map((j) => ({ j, s: dot(vectors, r * stride, vectors, j * stride, dim) + bonus(j) }))
        .sort((a, b) => b.s - a.s).slice(0, k)
      // Every post gets its nearest neighbours; those under minScore only when nothing closer exists.
      const strong = best.filter((b) => b.s >= minScore)
      const positive = best.filter((b) => b.s > 0)
      const chosen = strong.length > 0 ? strong : (positive.length > 0 ? positive : best).slice(0, 3)
      return chosen.map((b) => ({ id: rowIds[b.j], score: Math.round(b.s * 1000) / 1000 }))
    },
  }
}
