/**
 * Each post's nearest posts, for the whole library at once (related posts, near-duplicate candidates).
 * Small libraries are compared exhaustively, large ones through an inverted-file index: k-means (two
 * levels, so building stays linear) groups the vectors, and a query scans the clusters nearest to it
 * plus the posts that share an entity or tag with it. The score is the same everywhere: cosine + 0.15
 * per shared entity, at most +0.3.
 *
 * The index is plain typed arrays over shared memory: one worker builds it and the others open the
 * same memory (openClusteredIndex), so a job holds one copy whatever the number of workers. The vectors
 * are int8 rows of a VectorSpace, read through a list of row numbers (the kernel's dotsAt, space.ts):
 * search's own rows when it lends them (flat-index.ts `lend`), so the server holds the vectors once,
 * else a copy of the index's own, stored cluster by cluster.
 */
import type { LentRows } from './flat-index.ts'
import { createSpace, eachDot, eachDotAt, openKernel, quantize, sharedFloat32, sharedInt32, spaceRows, type Kernel, type VectorSpace } from './space.ts'

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

/** Rows and their scales, written by writeRow; the build takes them over and reorders them in place. */
export interface ClusteredRows {
  space: VectorSpace
  /** Cosine factor of each row (quantize), over shared memory. */
  scales: Float32Array
}

export interface ClusteredIndexInput {
  ids: ArrayLike<number>
  dim: number
  /** Unit vectors, ids[i] at [i*dim, (i+1)*dim)... */
  vectors?: Float32Array
  /** ...or already written with writeRow into rowsFor(ids.length, dim), taken over by the index (int8)... */
  rows?: ClusteredRows
  /** ...or search's rows, lent: post ids[i] at row lent.rows[i] (read there, not copied). */
  lent?: LentRows
  /** Lowercased entity/tag keys per post... */
  keys?: string[][]
  /** ...or the same already numbered: post i's keys are keyIds[keyOffsets[i] .. keyOffsets[i+1]). */
  keyOffsets?: Int32Array
  keyIds?: Int32Array
}

/** The built index: typed arrays only (SharedArrayBuffer-backed), so it can be posted to another worker without a copy. */
export interface SharedClusteredIndex {
  n: number
  dim: number
  /** Where the vectors are: post j (in cluster order) at row at[j] of `space`, its cosine factor scales[j]. */
  space: VectorSpace
  at: Int32Array
  scales: Float32Array
  /** Whether `space` is search's (lent), not the index's own. */
  lent: boolean
  /** Centroid c at row c of its own small space. */
  centroids: VectorSpace
  centroidScales: Float32Array
  /** Post id of each j; posts are numbered cluster by cluster. */
  rowIds: Int32Array
  /** Post ids ascending, and the row of each (lookup by binary search). */
  sortedIds: Int32Array
  sortedRows: Int32Array
  /** Posts of cluster c: [clusterOffsets[c], clusterOffsets[c+1]). */
  clusterOffsets: Int32Array
  /** Keys of post r (ascending): keyIds[keyOffsets[r] .. keyOffsets[r+1]). */
  keyOffsets: Int32Array
  keyIds: Int32Array
  /** Posts holding key k, ascending (empty for keys held by more than MAX_POSTING posts). */
  postingOffsets: Int32Array
  postings: Int32Array
}

export interface ClusteredIndex {
  readonly shared: SharedClusteredIndex
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


/** Centroid rows for `n` posts: the clusters, plus scratch rows for the coarse level. */
const centroidCapacity = (n: number) => (n >= EXHAUSTIVE_BELOW ? Math.round(n / CLUSTER_SIZE) + 2 * COARSE + 1 : 0)

/** Where to write `n` vectors of `dim` for buildClusteredIndex({ rows }), with writeRow. */
export const rowsFor = (n: number, dim: number, opts?: { simd?: boolean }): ClusteredRows =>
  ({ space: createSpace(dim, n, opts), scales: sharedFloat32(n) })

export function writeRow(rows: ClusteredRows, i: number, vector: ArrayLike<number>): void {
  rows.scales[i] = quantize(vector, spaceRows(rows.space), i * rows.space.rowBytes)
}

/** The vectors the build reads: input i at row rowAt[i] of `space` (int8 `vectors`), its cosine factor scales[rowAt[i]]. */
interface Source { space: VectorSpace; vectors: Int8Array; rowAt: Int32Array; scales: Float32Array }

/** The centroids' own space and this thread's kernel over it; a row is compared with them from the kernel's query slot. */
interface Centroids { space: VectorSpace; rows: Int8Array; kernel: Kernel; scales: Float32Array }

const openCentroids = (space: VectorSpace, scales: Float32Array): Centroids => ({ space, rows: spaceRows(space), kernel: openKernel(space), scales })

/** Index of the centroid nearest to the int8 row at `from` of `vectors` among `count` from centroid `first` (largest cosine). */
function nearest(c: Centroids, vectors: Int8Array, from: number, first: number, count: number): number {
  const { kernel, space } = c
  kernel.query.set(vectors.subarray(from, from + space.rowBytes))
  let best = 0
  let bestDot = -Infinity
  eachDot(kernel, kernel.queryAt, space.rowsAt + first * space.rowBytes, count, space.rowBytes, (i, d) => {
    const s = d * c.scales[first + i]
    if (s > bestDot) {
      bestDot = s
      best = i
    }
  })
  return best
}

/**
 * Spherical k-means over the given inputs (a strided sample trains it): `k` unit centroids written
 * from centroid row `first`. Deterministic for the same input.
 */
function kmeans(src: Source, cents: Centroids, inputs: Int32Array, k: number, first: number, rand: () => number, iterations: number): void {
  const { vectors, rowAt, scales } = src
  const { rowBytes, dim } = src.space
  const cs = cents.scales
  const m = inputs.length
  const sampleSize = Math.min(m, Math.max(k * 40, 2048))
  const step = m / sampleSize
  const sample = new Int32Array(sampleSize)
  for (let i = 0; i < sampleSize; i++) sample[i] = rowAt[inputs[Math.floor(i * step)]]
  const seed = (c: number) => {
    const r = sample[Math.floor(rand() * sampleSize)]
    cents.rows.set(vectors.subarray(r * rowBytes, (r + 1) * rowBytes), (first + c) * rowBytes)
    cs[first + c] = scales[r]
  }
  for (let c = 0; c < k; c++) seed(c)
  const sums = new Float64Array(k * dim)
  const counts = new Int32Array(k)
  for (let it = 0; it < iterations; it++) {
    sums.fill(0)
    counts.fill(0)
    for (let i = 0; i < sampleSize; i++) {
      const r = sample[i]
      const c = nearest(cents, vectors, r * rowBytes, first, k)
      counts[c]++
      const o = c * dim
      const v = r * rowBytes
      const f = scales[r]
      for (let d = 0; d < dim; d++) sums[o + d] += vectors[v + d] * f
    }
    for (let c = 0; c < k; c++) {
      // An empty cluster starts again from a random sample row.
      if (counts[c] === 0) {
        seed(c)
        continue
      }
      cs[first + c] = quantize(sums.subarray(c * dim, (c + 1) * dim), cents.rows, (first + c) * rowBytes)
    }
  }
}

/**
 * Cluster of every input: two-level k-means (COARSE cells, then each cell split in proportion to its
 * size), so building costs n x (COARSE + a cell's share) dot products instead of n x clusters.
 * The clusters' centroids end in centroid rows [0, count).
 */
function cluster(src: Source, cents: Centroids, n: number): { clusterOf: Int32Array; count: number } {
  const { rowBytes } = src.space
  const { vectors, rowAt } = src
  const total = Math.max(1, Math.round(n / CLUSTER_SIZE))
  const rand = mulberry32(42)
  const coarseK = Math.min(COARSE, total)
  // The coarse centroids go at the end of the centroid rows (scratch), the clusters' at the start.
  const coarseFirst = cents.space.capacity - coarseK
  kmeans(src, cents, Int32Array.from({ length: n }, (_, i) => i), coarseK, coarseFirst, rand, 8)
  const cellOf = new Int32Array(n)
  const cellSize = new Int32Array(coarseK)
  for (let i = 0; i < n; i++) cellSize[(cellOf[i] = nearest(cents, vectors, rowAt[i] * rowBytes, coarseFirst, coarseK))]++
  const members = Array.from({ length: coarseK }, (_, c) => new Int32Array(cellSize[c]))
  const fill = new Int32Array(coarseK)
  for (let i = 0; i < n; i++) members[cellOf[i]][fill[cellOf[i]]++] = i
  const fineK = Array.from(cellSize, (s) => (s === 0 ? 0 : Math.max(1, Math.round((total * s) / n))))
  const clusterOf = new Int32Array(n)
  let first = 0
  for (let c = 0; c < coarseK; c++) {
    if (fineK[c] === 0) continue
    kmeans(src, cents, members[c], fineK[c], first, rand, 6)
    for (const i of members[c]) clusterOf[i] = first + nearest(cents, vectors, rowAt[i] * rowBytes, first, fineK[c])
    first += fineK[c]
  }
  cents.rows.fill(0, first * rowBytes)
  return { clusterOf, count: first }
}

/** Puts row order[r] (and its scale) at row r, in place (each permutation cycle followed once). */
function permuteRows({ space, scales }: ClusteredRows, order: Int32Array): void {
  const vectors = spaceRows(space)
  const stride = space.rowBytes
  const done = new Uint8Array(order.length)
  const tmp = new Int8Array(stride)
  for (let start = 0; start < order.length; start++) {
    if (done[start] || order[start] === start) continue
    tmp.set(vectors.subarray(start * stride, (start + 1) * stride))
    const tmpScale = scales[start]
    let r = start
    for (;;) {
      done[r] = 1
      const from = order[r]
      if (from === start) {
        vectors.set(tmp, r * stride)
        scales[r] = tmpScale
        break
      }
      vectors.copyWithin(r * stride, from * stride, (from + 1) * stride)
      scales[r] = scales[from]
      r = from
    }
  }
}

export function buildClusteredIndex(input: ClusteredIndexInput): ClusteredIndex {
  const { dim, lent } = input
  const n = input.ids.length
  if (lent && (lent.rows.length !== n || lent.rows.some((r) => r < 0))) throw new Error('related index: a lent row is missing')
  // The vectors: search's, lent; else the index's own shared memory, taken over when written there already, else copied in.
  let own = lent ? null : input.rows
  if (!lent && (!own || own.space.capacity < n)) {
    const packed = input.vectors ?? new Float32Array(0)
    own = rowsFor(n, dim)
    for (let i = 0; i < n; i++) writeRow(own, i, packed.subarray(i * dim, (i + 1) * dim))
  }
  const space = lent?.space ?? own!.space
  const src: Source = lent
    ? { space, vectors: spaceRows(space), rowAt: lent.rows, scales: lent.scales }
    : { space, vectors: spaceRows(space), rowAt: Int32Array.from({ length: n }, (_, i) => i), scales: own!.scales }
  const kernel = openKernel(space)
  const cents = openCentroids(createSpace(dim, centroidCapacity(n), { simd: space.memory !== null }), sharedFloat32(centroidCapacity(n)))

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

  // Posts in cluster order.
  let clusterOffsets: Int32Array
  const order = new Int32Array(n)
  if (n >= EXHAUSTIVE_BELOW) {
    const c = cluster(src, cents, n)
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
  // Post j's row: its own copy is reordered so each cluster is one run of memory; lent rows stay where they are.
  const at = sharedInt32(n)
  let scales: Float32Array
  if (own) {
    permuteRows(own, order)
    for (let j = 0; j < n; j++) at[j] = j
    scales = own.scales
  } else {
    scales = sharedFloat32(n)
    for (let j = 0; j < n; j++) scales[j] = src.scales[(at[j] = src.rowAt[order[j]])]
  }

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

  return openClusteredIndex({
    n, dim, space, at, scales, lent: !own, centroids: cents.space, centroidScales: cents.scales, rowIds, sortedIds, sortedRows, clusterOffsets, keyOffsets, keyIds, postingOffsets, postings,
  }, kernel, cents)
}

/** Bytes the index holds itself: its arrays, its centroids and, unless search lent them, the vectors. */
export function clusteredIndexBytes(s: SharedClusteredIndex): number {
  const arrays = [s.at, s.scales, s.centroidScales, s.rowIds, s.sortedIds, s.sortedRows, s.clusterOffsets, s.keyOffsets, s.keyIds, s.postingOffsets, s.postings]
  return arrays.reduce((b, a) => b + a.buffer.byteLength, 0) + s.centroids.buffer.byteLength + (s.lent ? 0 : s.space.buffer.byteLength)
}

/** Queries over an index built elsewhere (another worker's shared memory). */
export function openClusteredIndex(shared: SharedClusteredIndex, kernel: Kernel = openKernel(shared.space),
  cents: Centroids = openCentroids(shared.centroids, shared.centroidScales)): ClusteredIndex {
  const { n, space, at, scales, rowIds, sortedIds, sortedRows, clusterOffsets, keyOffsets, keyIds, postingOffsets, postings } = shared
  const { rowBytes } = space
  const vectors = spaceRows(space)
  const ck = cents.kernel
  const addressOf = (j: number) => space.rowsAt + at[j] * rowBytes
  /** Cosine of posts a and b (int8 dot, scaled back). */
  const cosine = (a: number, b: number): number => {
    kernel.dots(addressOf(a), addressOf(b), 1, rowBytes, kernel.outAt)
    return kernel.out[0] * scales[a] * scales[b]
  }
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
      const q = addressOf(r)
      const qs = scales[r]
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
      if (clusters > 1) {
        ck.query.set(vectors.subarray(at[r] * rowBytes, (at[r] + 1) * rowBytes))
        eachDot(ck, ck.queryAt, cents.space.rowsAt, clusters, rowBytes, (c, d) => {
          sims[c] = d * cents.scales[c]
          taken[c] = 0
        })
      } else taken[0] = 0
      let scanned = 0
      for (let probe = 0; probe < MAX_PROBES && scanned < SCAN_ROWS && probe < clusters; probe++) {
        let c = -1
        for (let x = 0; x < clusters; x++) if (!taken[x] && (c < 0 || sims[x] > sims[c])) c = x
        taken[c] = 1
        const start = clusterOffsets[c]
        const count = clusterOffsets[c + 1] - start
        eachDotAt(kernel, q, space.rowsAt, at, start, count, rowBytes, (j, _, dot) => {
          if (seen[j] === stamp) return
          seen[j] = stamp
          const d = dot * qs * scales[j]
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
          const s = cosine(r, j) + b
          if (s > floor) offer(j, s)
        }
      }

      const best = bestRows.map((j) => ({ j, s: cosine(r, j) + bonus(j) }))
        .sort((a, b) => b.s - a.s).slice(0, k)
      // Every post gets its nearest neighbours; those under minScore only when nothing closer exists.
      const strong = best.filter((b) => b.s >= minScore)
      const positive = best.filter((b) => b.s > 0)
      const chosen = strong.length > 0 ? strong : (positive.length > 0 ? positive : best).slice(0, 3)
      return chosen.map((b) => ({ id: rowIds[b.j], score: Math.round(b.s * 1000) / 1000 }))
    },
  }
}
