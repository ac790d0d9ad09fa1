import { createSpace, dotsAtList, eachChunk, openKernel, quantize, sharedFloat32, spaceCodes, spaceRows, CHUNK, LIST, type Kernel, type VectorSpace } from './space.ts'
import { bestK, bestOf } from './top-k.ts'

/**
 * Every post's vector, kept current one post at a time, searched by brute force: no partition to go
 * stale or tune. A large index first ranks every row by a compact code (one bit per dimension: above or
 * below the rows' mean), 8x fewer bytes than the int8 rows and a popcount instead of a multiply, then
 * scores the best `rescored(k)` rows exactly: the answer is the exact ranking of those, which holds
 * the exact top k but for a rare far-down row (docs/understanding.md#where-the-vectors-live).
 */
export interface FlatIndex {
  readonly dim: number
  readonly size: number
  readonly simd: boolean
  has(id: number): boolean
  upsert(id: number, vector: Float32Array): void
  remove(id: number): void
  /** Up to `k` nearest posts by cosine, best first; `allowed` restricts the candidates. */
  search(query: Float32Array, k: number, allowed?: AllowedIds): Array<{ id: number; score: number }>
  /**
   * Lends the rows of `ids` to a reader in another thread (the related-post index), so the vectors are
   * held once. The rows held now stay as they are until every loan is given back: new posts go after
   * them, and changing or removing one of them first moves this index to a copy of its own (the reader
   * keeps the old memory, as it had its own copy before). Growing moves it too.
   */
  lend(ids: ArrayLike<number>): Loan
}

/** Rows lent to a reader: `rows[i]` is the row of the i-th id asked for (-1 where this index holds none). */
export interface LentRows {
  space: VectorSpace
  /** Each row's cosine factor (quantize), over shared memory like the rows. */
  scales: Float32Array
  rows: Int32Array
}

export interface Loan {
  lent: LentRows
  /** The reader is done with the rows (again: nothing). */
  giveBack(): void
}

/** Allowed posts under 1 in FEW of the rows are scored alone rather than found in a scan of every row. */
const FEW = 16
/** From this many rows a search ranks by code first (below it the exact scan costs under ~3 ms). */
export const CODES_FROM = 20_000
/**
 * Rows scored exactly after the code pass, for k wanted: at 100,000 sentence vectors this holds ~99%
 * of the exact top 200 and all of the top 10 (bench/vector-scan.ts).
 */
export const rescored = (k: number): number => Math.max(2000, 8 * k)

type Hit = { id: number; score: number }

/**
 * The posts a search may return: a Set, or a filter's posts kept in memory (search/filter-sets.ts, a
 * bitmap by id) whose `has` costs a shift and a mask.
 */
export interface AllowedIds {
  readonly size: number
  has(id: number): boolean
  [Symbol.iterator](): Iterator<number>
}

/**
 * Bits past the last search's reach a code pass starts from: ~1.5 standard deviations of the distance
 * between random codes (17 bits at 512 dims). At 100,000 sentence vectors and 12 bits, 10% of the
 * 637 bench questions' passes for 2,000 rows were run again, 2% of those for 8,000.
 */
const reachSlack = (dim: number): number => Math.round(0.75 * Math.sqrt(dim))

export function createFlatIndex({ dim, initialCapacity = 1024, simd = true, codesFrom = CODES_FROM }:
  { dim: number; initialCapacity?: number; simd?: boolean; codesFrom?: number }): FlatIndex {
  let space: VectorSpace = createSpace(dim, initialCapacity, { codes: true, simd })
  let kernel: Kernel = openKernel(space)
  let rows = spaceRows(space)
  let codes = spaceCodes(space)
  const { rowBytes, codeBytes } = space
  let ids = new Int32Array(space.capacity)
  let scales = sharedFloat32(space.capacity)
  /** The code pass's rows and their distances, reused by every search (a search runs to its end before the next). */
  let keptRows = new Int32Array(space.capacity)
  let keptDists = new Uint16Array(space.capacity)
  let scores = new Float32Array(1024)
  const pos = new Map<number, number>()
  let size = 0
  const centre = createCentre(dim)
  /**
   * Where the last code pass for each count of rows wanted ended (a distance in bits), apart for each
   * kept allowed set: a filter that few posts pass reaches farther, and would send every plain search
   * after it further than it needs (and the plain search's reach would cost the filtered one a pass again).
   */
  const reach = new Map<number, number>()
  const reachAmong = new WeakMap<AllowedIds, Map<number, number>>()
  const reachOf = (allowed?: AllowedIds): Map<number, number> => {
    if (!allowed) return reach
    let r = reachAmong.get(allowed)
    if (!r) reachAmong.set(allowed, (r = new Map()))
    return r
  }
  const slack = reachSlack(dim)

  /** Loans out and the rows they hold ([0, lentRows)); `loanRound` tells a loan given back after a move from one still out. */
  let loans = 0
  let lentRows = 0
  let loanRound = 0

  /** Into a new space of `capacity` rows: the old one is left to the readers holding it, unchanged. */
  const moveTo = (capacity: number) => {
    const next = createSpace(dim, capacity, { codes: true, simd })
    spaceRows(next).set(rows.subarray(0, size * rowBytes))
    spaceCodes(next).set(codes.subarray(0, size * codeBytes))
    space = next
    kernel = openKernel(space)
    rows = spaceRows(space)
    codes = spaceCodes(space)
    ids = grown(ids, new Int32Array(space.capacity))
    scales = grown(scales, sharedFloat32(space.capacity))
    keptRows = new Int32Array(space.capacity)
    keptDists = new Uint16Array(space.capacity)
    loans = 0
    lentRows = 0
    loanRound++
  }
  const grow = () => moveTo(space.capacity * 2)
  /** Before row p is changed or moved: a copy of our own if it is lent. */
  const own = (p: number) => {
    if (loans > 0 && p < lentRows) moveTo(space.capacity)
  }

  /** Row p's code: bit d set where its dimension d (as a share of the unit vector) lies above the centre. */
  const writeCode = (p: number) => {
    const row = p * rowBytes
    const at = p * codeBytes
    codes.fill(0, at, at + codeBytes)
    writeBits(codes, at, rows, row, scales[p], centre.at)
  }
  /** Codes are taken against the mean of the rows when last re-centred; again once as many rows have changed. */
  const recentreIfDrifted = () => {
    if (!centre.drifted(size)) return
    centre.recentre(size)
    for (let p = 0; p < size; p++) writeCode(p)
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
      } else {
        own(p)
        centre.add(rows, p * rowBytes, -scales[p])
      }
      scales[p] = quantize(vector, rows, p * rowBytes)
      centre.add(rows, p * rowBytes, scales[p])
      writeCode(p)
      recentreIfDrifted()
    },
    remove(id) {
      const p = pos.get(id)
      if (p === undefined) return
      own(p)
      centre.add(rows, p * rowBytes, -scales[p])
      const last = size - 1
      if (p !== last) {
        rows.copyWithin(p * rowBytes, last * rowBytes, (last + 1) * rowBytes)
        codes.copyWithin(p * codeBytes, last * codeBytes, (last + 1) * codeBytes)
        ids[p] = ids[last]
        scales[p] = scales[last]
        pos.set(ids[p], p)
      }
      pos.delete(id)
      size = last
      recentreIfDrifted()
    },
    search(query, k, allowed) {
      if (size === 0 || k <= 0) return []
      kernel.query.fill(0)
      const qs = quantize(query, kernel.query, 0)
      if (qs === 0) return []
      if (allowed && allowed.size * FEW < size) return nearestAmong(qs, k, allowed)
      return size >= codesFrom && rescored(k) < size ? nearestByCode(qs, k, allowed) : nearest(qs, k, allowed)
    },
    lend(lentIds) {
      lentRows = loans === 0 ? size : Math.max(lentRows, size)
      loans++
      const round = loanRound
      let out = true
      return {
        lent: { space, scales, rows: Int32Array.from(lentIds, (id) => pos.get(id) ?? -1) },
        giveBack() {
          if (out && round === loanRound) loans--
          out = false
        },
      }
    },
  }

  function hitOf(row: number, score: number): Hit {
    return { id: ids[row], score }
  }

  /** The exact scores of the first `count` rows of `at` (in row order), best k: the kernel scores a list of rows at a time. */
  function scoreRows(qs: number, k: number, at: Int32Array, count: number): Hit[] {
    const { list, out } = kernel
    const rowScales = scales
    const scored = scoredFor(count)
    for (let s = 0; s < count; s += LIST) {
      const n = Math.min(LIST, count - s)
      dotsAtList(kernel, kernel.queryAt, space.rowsAt, at, s, n, rowBytes)
      for (let j = 0; j < n; j++) scored[s + j] = Math.fround(out[j] * rowScales[list[j]] * qs)
    }
    return bestOf(scored, at, count, k, hitOf)
  }

  /** Room for `count` scores (scoreRows', reused by every search). */
  function scoredFor(count: number): Float32Array {
    if (scores.length < count) scores = new Float32Array(Math.max(count, 2 * scores.length))
    return scores
  }

  /** A few allowed posts (an author's, a category's): their rows alone, one kernel call each, in row order. */
  function nearestAmong(qs: number, k: number, allowed: AllowedIds): Hit[] {
    const at = new Int32Array(allowed.size)
    let n = 0
    for (const id of allowed) {
      const p = pos.get(id)
      if (p !== undefined) at[n++] = p
    }
    return scoreRows(qs, k, at.subarray(0, n).sort(), n)
  }

  /**
   * Every row's code against the query's, then the exact scores of the closest rescored(k) by code (all
   * rows tied at the last distance taken). The kernel hands back only rows within the distance that the
   * closest rescored(k) seen so far reach. That distance starts a few bits past where the last search
   * for as many rows ended, so the first chunks hand back a few hundred rows, not all of theirs; when
   * fewer than rescored(k) rows lie within it, the pass is run again from every distance (the same rows).
   */
  function nearestByCode(qs: number, k: number, allowed?: AllowedIds): Hit[] {
    writeQueryCode(qs)
    const want = rescored(k)
    const reached = reachOf(allowed)
    const last = reached.get(want)
    let pass = last === undefined ? null : codePass(want, Math.min(dim, last + slack), allowed)
    if (!pass?.enough) pass = codePass(want, dim, allowed)
    reached.set(want, pass.t)
    // Those within the final distance, moved to the front in row order.
    let n = 0
    for (let i = 0; i < pass.kept; i++) if (keptDists[i] <= pass.t) keptRows[n++] = keptRows[i]
    return scoreRows(qs, k, keptRows, n)
  }

  /**
   * The rows within code distance `t` of the query (the first `kept` of keptRows, their distances in keptDists),
   * `t` lowered as the closest `want` allow.
   */
  function codePass(want: number, t: number, allowed?: AllowedIds): { kept: number; t: number; enough: boolean } {
    // Counts by distance of the rows kept (every row within t when it came, so exact for distances up to t).
    const hist = new Int32Array(dim + 1)
    let kept = 0
    for (let from = 0; from < size; from += CHUNK) {
      const n = kernel.near(kernel.queryCodeAt, space.codesAt + from * codeBytes, Math.min(CHUNK, size - from), codeBytes, kernel.outAt, t)
      const out = kernel.out
      for (let c = 0; c < n; c++) {
        const p = from + (out[c] >>> 16)
        if (allowed && !allowed.has(ids[p])) continue
        const d = out[c] & 0xffff
        hist[d]++
        keptRows[kept] = p
        keptDists[kept++] = d
      }
      t = within(hist, t, want)
    }
    let inReach = 0
    for (let d = 0; d <= t; d++) inReach += hist[d]
    return { kept, t, enough: inReach >= want || t === dim }
  }

  /** The query's code, as the rows' (kernel.query * qs is the query as a unit vector). */
  function writeQueryCode(qs: number) {
    kernel.queryCode.fill(0)
    writeBits(kernel.queryCode, 0, kernel.query, 0, qs, centre.at)
  }

  /** The best k rows by cosine, taken straight from the kernel's results: most rows fall below the floor. */
  function nearest(qs: number, k: number, allowed?: AllowedIds): Hit[] {
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
    return best.drain(hitOf)
  }
}

/** Bit d of the code at `at`: whether int8 value d of the row at `from`, times `scale`, lies above `centre[d]`. */
function writeBits(codes: Uint8Array, at: number, rows: Int8Array, from: number, scale: number, centre: Float32Array): void {
  const dim = centre.length
  for (let d0 = 0; d0 < dim; d0 += 8) {
    let byte = 0
    // +(a > b), not an if: half the comparisons go each way, and the branch cost ~3x (mispredicted).
    for (let b = 0, end = Math.min(8, dim - d0); b < end; b++) byte |= +(rows[from + d0 + b] * scale > centre[d0 + b]) << b
    codes[at + (d0 >> 3)] = byte
  }
}

/** The least distance up to which `hist` counts `want` rows (or `t` if it counts fewer). */
function within(hist: Int32Array, t: number, want: number): number {
  let cum = 0
  for (let d = 0; d < t; d++) if ((cum += hist[d]) >= want) return d
  return t
}


function grown<T extends Int32Array | Float32Array>(from: T, into: T): T {
  into.set(from)
  return into
}

/**
 * The centre codes are taken against: the rows' mean (as unit vectors) when last re-centred, and the
 * running sum it is re-taken from once as many rows have changed as there were then.
 */
function createCentre(dim: number) {
  const sum = new Float64Array(dim)
  const at = new Float32Array(dim)
  let changed = 0
  let rowsThen = 0
  return {
    at,
    /** Adds the int8 row at `from` times `scale` (a negative scale takes it away). */
    add(rows: Int8Array, from: number, scale: number) {
      for (let d = 0; d < dim; d++) sum[d] += rows[from + d] * scale
      changed++
    },
    drifted: (size: number) => size > 0 && changed > Math.max(rowsThen, 64),
    recentre(size: number) {
      for (let d = 0; d < dim; d++) at[d] = sum[d] / size
      rowsThen = size
      changed = 0
    },
  }
}
