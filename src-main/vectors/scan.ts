import { dotsAtList, eachChunk, openKernel, quantize, CHUNK, LIST, type Kernel, type VectorSpace } from './space.ts'
import { bestK, bestOf } from './top-k.ts'

/**
 * The flat index's search (flat-index.ts), apart from its writes: one implementation, run on the thread
 * that owns the index (tests, an index in memory, a narrow filter's few rows, a scan thread that died)
 * or on the scan thread (scan-thread.ts), over the same shared memory. It only reads the rows, codes,
 * ids, scales and centre, and only rows [0, size) as the owner says when it asks; the owner applies no
 * write while a scan it asked for is under way (flat-index.ts). What a scan keeps between scans (each
 * code pass's reach, the scratch arrays) is its own, so each thread has its own.
 */

export type Hit = { id: number; score: number }

/**
 * The posts a search may return: a Set, or a filter's posts kept in memory (search/filter-sets.ts, a
 * bitmap by id) whose `has` costs a shift and a mask.
 */
export interface AllowedIds {
  readonly size: number
  has(id: number): boolean
  [Symbol.iterator](): Iterator<number>
  /** The bitmap by id (bit id & 31 of word id >>> 5) when kept over shared memory: posted to the scan thread without a copy. */
  readonly bits?: Uint32Array
}

/** What a scan reads: plain data over shared memory (a space and typed arrays), so it can be posted to the scan thread. */
export interface ScanView {
  space: VectorSpace
  /** Each row's post id. */
  ids: Int32Array
  /** Each row's cosine factor (quantize). */
  scales: Float32Array
  /** The centre the codes are taken against (flat-index.ts createCentre). */
  centre: Float32Array
}

/** From this many rows a search ranks by code first (below it the exact scan costs under ~3 ms). */
export const CODES_FROM = 20_000
/**
 * Rows scored exactly after the code pass, for k wanted: at 100,000 sentence vectors this holds ~99%
 * of the exact top 200 and all of the top 10 (bench/vector-scan.ts).
 */
export const rescored = (k: number): number => Math.max(2000, 8 * k)

/**
 * Bits past the last search's reach a code pass starts from: ~1.5 standard deviations of the distance
 * between random codes (17 bits at 512 dims). At 100,000 sentence vectors and 12 bits, 10% of the
 * 637 bench questions' passes for 2,000 rows were run again, 2% of those for 8,000.
 */
const reachSlack = (dim: number): number => Math.round(0.75 * Math.sqrt(dim))

export interface Scanner {
  /** Up to `k` nearest of rows [0, size) by cosine, best first; `allowed` restricts the candidates. */
  scan(query: Float32Array, k: number, size: number, allowed?: AllowedIds): Hit[]
  /** The best `k` of the first `count` rows listed in `rows` (in row order). */
  among(query: Float32Array, k: number, rows: Int32Array, count: number): Hit[]
  /** Reads this view from now on (the index moved to new memory). */
  adopt(view: ScanView): void
  /** Whether the kernel is the WebAssembly SIMD one (false: plain JS). */
  readonly simd: boolean
}

/** `scan`: this kernel is the scan thread's (space.ts SCAN_SLOT), not the owner's. */
export function createScanner(first: ScanView, { codesFrom = CODES_FROM, scan: onScanThread = false } = {}): Scanner {
  let view = first
  let kernel: Kernel = openKernel(view.space, { scan: onScanThread })
  const { dim, rowBytes, codeBytes } = view.space
  /** The code pass's rows and their distances, reused by every scan (a scan runs to its end before the next). */
  let keptRows = new Int32Array(view.space.capacity)
  let keptDists = new Uint16Array(view.space.capacity)
  let scores = new Float32Array(1024)
  /**
   * Where the last code pass for each count of rows wanted ended (a distance in bits), apart for each
   * kept allowed set: a filter that few posts pass reaches farther, and would send every plain search
   * after it further than it needs (and the plain search's reach would cost the filtered one a pass again).
   * It only saves passes: a pass from too near a start is run again from every distance, the same rows.
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

  /** The query into the kernel's query row; its factor (0 for a zero vector: nothing is near it). */
  const queryOf = (query: Float32Array): number => {
    kernel.query.fill(0)
    return quantize(query, kernel.query, 0)
  }

  return {
    get simd() {
      return kernel.simd
    },
    scan(query, k, size, allowed) {
      const qs = queryOf(query)
      if (qs === 0) return []
      return size >= codesFrom && rescored(k) < size ? nearestByCode(qs, k, size, allowed) : nearest(qs, k, size, allowed)
    },
    among(query, k, rows, count) {
      const qs = queryOf(query)
      return qs === 0 ? [] : scoreRows(qs, k, rows, count)
    },
    adopt(next) {
      if (next.space !== view.space) kernel = openKernel(next.space, { scan: onScanThread })
      if (next.space.capacity !== view.space.capacity) {
        keptRows = new Int32Array(next.space.capacity)
        keptDists = new Uint16Array(next.space.capacity)
      }
      view = next
    },
  }

  function hitOf(row: number, score: number): Hit {
    return { id: view.ids[row], score }
  }

  /** The exact scores of the first `count` rows of `at` (in row order), best k: the kernel scores a list of rows at a time. */
  function scoreRows(qs: number, k: number, at: Int32Array, count: number): Hit[] {
    const { list, out } = kernel
    const rowScales = view.scales
    const scored = scoredFor(count)
    for (let s = 0; s < count; s += LIST) {
      const n = Math.min(LIST, count - s)
      dotsAtList(kernel, kernel.queryAt, view.space.rowsAt, at, s, n, rowBytes)
      for (let j = 0; j < n; j++) scored[s + j] = Math.fround(out[j] * rowScales[list[j]] * qs)
    }
    return bestOf(scored, at, count, k, hitOf)
  }

  /** Room for `count` scores (scoreRows', reused by every scan). */
  function scoredFor(count: number): Float32Array {
    if (scores.length < count) scores = new Float32Array(Math.max(count, 2 * scores.length))
    return scores
  }

  /**
   * Every row's code against the query's, then the exact scores of the closest rescored(k) by code (all
   * rows tied at the last distance taken). The kernel hands back only rows within the distance that the
   * closest rescored(k) seen so far reach. That distance starts a few bits past where the last search
   * for as many rows ended, so the first chunks hand back a few hundred rows, not all of theirs; when
   * fewer than rescored(k) rows lie within it, the pass is run again from every distance (the same rows).
   */
  function nearestByCode(qs: number, k: number, size: number, allowed?: AllowedIds): Hit[] {
    writeQueryCode(qs)
    const want = rescored(k)
    const reached = reachOf(allowed)
    const last = reached.get(want)
    let pass = last === undefined ? null : codePass(want, Math.min(dim, last + slack), size, allowed)
    if (!pass?.enough) pass = codePass(want, dim, size, allowed)
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
  function codePass(want: number, t: number, size: number, allowed?: AllowedIds): { kept: number; t: number; enough: boolean } {
    // Counts by distance of the rows kept (every row within t when it came, so exact for distances up to t).
    const hist = new Int32Array(dim + 1)
    const ids = view.ids
    let kept = 0
    for (let from = 0; from < size; from += CHUNK) {
      const n = kernel.near(kernel.queryCodeAt, view.space.codesAt + from * codeBytes, Math.min(CHUNK, size - from), codeBytes, kernel.outAt, t)
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
    writeBits(kernel.queryCode, 0, kernel.query, 0, qs, view.centre)
  }

  /** The best k rows by cosine, taken straight from the kernel's results: most rows fall below the floor. */
  function nearest(qs: number, k: number, size: number, allowed?: AllowedIds): Hit[] {
    const best = bestK(k)
    const rowScales = view.scales
    const rowIds = view.ids
    // The floor in scaled-dot units (a hair lower, for rounding), so most rows cost one multiply and one comparison.
    const dotFloor = () => best.floor / qs - Math.abs(best.floor / qs) * 1e-6
    eachChunk(kernel, kernel.queryAt, view.space.rowsAt, size, rowBytes, (from, len, out) => {
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
export function writeBits(codes: Uint8Array, at: number, rows: Int8Array, from: number, scale: number, centre: Float32Array): void {
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

/** The posts of a bitmap by id (AllowedIds.bits), as AllowedIds: how the scan thread reads a filter's posts. */
export function bitsAllowed(bits: Uint32Array, size: number): AllowedIds {
  const has = (id: number): boolean => id >>> 5 < bits.length && (bits[id >>> 5] & (1 << (id & 31))) !== 0
  return {
    size,
    bits,
    has,
    *[Symbol.iterator]() {
      for (let w = 0; w < bits.length; w++) for (let b = 0; b < 32; b++) if (bits[w] & (1 << b)) yield w * 32 + b
    },
  }
}

/** A bitmap by id of any allowed posts (a Set): what goes to the scan thread for posts not kept as one. */
export function bitsOf(allowed: AllowedIds): Uint32Array {
  if (allowed.bits) return allowed.bits
  let max = 0
  for (const id of allowed) if (id > max) max = id
  const bits = new Uint32Array((max >>> 5) + 1)
  for (const id of allowed) bits[id >>> 5] |= 1 << (id & 31)
  return bits
}
