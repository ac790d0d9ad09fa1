import { createScanner, writeBits, CODES_FROM, type AllowedIds, type Hit, type ScanView } from './scan.ts'
import type { ScanThread } from './scan-thread.ts'
import { createSpace, quantize, sharedFloat32, sharedInt32, spaceCodes, spaceRows, type VectorSpace } from './space.ts'

export { CODES_FROM, rescored, type AllowedIds } from './scan.ts'

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
  /**
   * Up to `k` nearest posts by cosine, best first; `allowed` restricts the candidates. Scanned here, on
   * this thread, from the writes applied so far (none is applied while a scan thread's scan is under way).
   */
  search(query: Float32Array, k: number, allowed?: AllowedIds): Hit[]
  /**
   * The same answer, scanned on the scan thread when the index has one and holds THREAD_FROM rows or
   * more (a narrow filter's few rows are scored here), and seeing every write made before it was asked.
   */
  searchFar(query: Float32Array, k: number, allowed?: AllowedIds): Promise<Hit[]>
  /**
   * Lends the rows of `ids` to a reader in another thread (the related-post index), so the vectors are
   * held once. The rows held now stay as they are until every loan is given back: new posts go after
   * them, and changing or removing one of them first moves this index to a copy of its own (the reader
   * keeps the old memory, as it had its own copy before). Growing moves it too.
   */
  lend(ids: ArrayLike<number>): Loan
  /**
   * A post's score against `query` as search(query) would give it (bit for bit), 0 where this index holds
   * no row for it, once every write made before it was asked is applied (as searchFar). For one query
   * asked again and again (the blank vector: search/candidates.ts withoutBlank): its score is kept per
   * row (4 bytes), worked out the first time the row is read after it was written; another query drops
   * them. The reader reads the rows as they are when called: call it before awaiting anything else.
   */
  keptScores(query: Float32Array): Promise<(id: number) => number>
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
/**
 * From this many rows a whole-index scan goes to the scan thread: posting one costs the asking thread
 * ~0.07-0.12 ms, the scan of 4,096 rows ~0.3-0.4 ms inline (bench/scan-thread.ts --rows 4096); smaller
 * indexes (tests, a small library) scan inline and start no thread.
 */
export const THREAD_FROM = 4096

type Write = { id: number; vector: Float32Array | null }

/**
 * `thread`: the scan thread searchFar scans on (null or absent: here). Writes and scans never overlap:
 * scans on the thread in flight are counted here, a write made while any is in flight is queued (its
 * vector copied) and applied, in order, once none is, and a searchFar asked while writes are queued
 * waits for them first, so a search after a write sees it, the scans in flight do not, and a steady
 * stream of searches cannot hold writes back (new scans wait behind them). has() and size count the
 * queued writes. A scan asked after the index moved to new memory (growth, a lent row changed) posts
 * the new memory along with it.
 */
export function createFlatIndex({ dim, initialCapacity = 1024, simd = true, codesFrom = CODES_FROM, thread = null, threadFrom = THREAD_FROM }:
  { dim: number; initialCapacity?: number; simd?: boolean; codesFrom?: number; thread?: ScanThread | null; threadFrom?: number }): FlatIndex {
  let space: VectorSpace = createSpace(dim, initialCapacity, { codes: true, simd })
  let rows = spaceRows(space)
  let codes = spaceCodes(space)
  const { rowBytes, codeBytes } = space
  let ids = sharedInt32(space.capacity)
  let scales = sharedFloat32(space.capacity)
  const pos = new Map<number, number>()
  let size = 0
  const centre = createCentre(dim)
  let view: ScanView = { space, ids, scales, centre: centre.at }
  const scanner = createScanner(view, { codesFrom })
  /** The view the scan thread holds (posted with the next scan when it is not `view`). */
  let sent: ScanView | null = null
  const key = thread?.register() ?? 0

  /** Scans on the thread under way; the writes made meanwhile; searches waiting for them to be applied. */
  let inFlight = 0
  let queued: Write[] = []
  /** Each queued write's post: present or not once the queue is applied. */
  const queuedHas = new Map<number, boolean>()
  let queuedGrowth = 0
  let waiting: Array<() => void> = []

  /** Loans out and the rows they hold ([0, lentRows)); `loanRound` tells a loan given back after a move from one still out. */
  let loans = 0
  let lentRows = 0
  let loanRound = 0
  const kept = createKeptScores(dim)

  /** Into a new space of `capacity` rows: the old one is left to the readers holding it, unchanged. */
  const moveTo = (capacity: number) => {
    const next = createSpace(dim, capacity, { codes: true, simd })
    spaceRows(next).set(rows.subarray(0, size * rowBytes))
    spaceCodes(next).set(codes.subarray(0, size * codeBytes))
    space = next
    rows = spaceRows(space)
    codes = spaceCodes(space)
    ids = grown(ids, sharedInt32(space.capacity))
    scales = grown(scales, sharedFloat32(space.capacity))
    kept.grow(space.capacity)
    view = { space, ids, scales, centre: centre.at }
    scanner.adopt(view)
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

  const upsertNow = (id: number, vector: Float32Array) => {
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
    kept.written(p)
    centre.add(rows, p * rowBytes, scales[p])
    writeCode(p)
    recentreIfDrifted()
  }
  const removeNow = (id: number) => {
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
      kept.moved(last, p)
      pos.set(ids[p], p)
    }
    pos.delete(id)
    size = last
    recentreIfDrifted()
  }

  const has = (id: number): boolean => queuedHas.get(id) ?? pos.has(id)
  /** Applies a write now, or queues it while a scan on the thread reads the rows. */
  const write = (id: number, vector: Float32Array | null) => {
    if (inFlight === 0) return vector ? upsertNow(id, vector) : removeNow(id)
    queuedGrowth += (vector ? 1 : 0) - (has(id) ? 1 : 0)
    queuedHas.set(id, vector !== null)
    queued.push({ id, vector: vector && Float32Array.from(vector) })
  }
  /** The last scan on the thread ended: the queued writes, then the searches that waited for them. */
  const settle = () => {
    if (--inFlight > 0) return
    const writes = queued
    queued = []
    queuedHas.clear()
    queuedGrowth = 0
    for (const w of writes) {
      if (w.vector) upsertNow(w.id, w.vector)
      else removeNow(w.id)
    }
    const woken = waiting
    waiting = []
    for (const wake of woken) wake()
  }

  /** A few allowed posts (an author's, a category's): their rows alone, one kernel call each, in row order. */
  const nearestAmong = (query: Float32Array, k: number, allowed: AllowedIds): Hit[] => {
    const at = new Int32Array(allowed.size)
    let n = 0
    for (const id of allowed) {
      const p = pos.get(id)
      if (p !== undefined) at[n++] = p
    }
    return scanner.among(query, k, at.subarray(0, n).sort(), n)
  }
  /** Until the queued writes are applied (when the last scan on the thread ends). */
  const applied = () => new Promise<void>((resolve) => waiting.push(resolve))
  const keptScore = (id: number): number => {
    const p = pos.get(id)
    return p === undefined ? 0 : kept.score(p, rows, rowBytes, scales)
  }
  const search = (query: Float32Array, k: number, allowed?: AllowedIds): Hit[] => {
    if (size === 0 || k <= 0) return []
    if (allowed && allowed.size * FEW < size) return nearestAmong(query, k, allowed)
    return scanner.scan(query, k, size, allowed)
  }
  /** On the thread; inline if it cannot (it died: the same rows, before the writes waiting for this scan). */
  const searchOnThread = async (t: ScanThread, query: Float32Array, k: number, allowed?: AllowedIds): Promise<Hit[]> => {
    inFlight++
    try {
      const memory = sent === view ? undefined : view
      sent = view
      return await t.scan({ index: key, codesFrom, memory, query, k, size, allowed })
    } catch {
      sent = null
      return scanner.scan(query, k, size, allowed)
    } finally {
      settle()
    }
  }

  return {
    dim,
    get size() {
      return size + queuedGrowth
    },
    get simd() {
      return scanner.simd
    },
    has,
    upsert(id, vector) {
      if (vector.length !== dim) throw new Error(`vector index: expected ${dim} dims, got ${vector.length}`)
      write(id, vector)
    },
    remove: (id) => write(id, null),
    search,
    async searchFar(query, k, allowed) {
      while (queued.length > 0) await applied()
      const wide = !(allowed && allowed.size * FEW < size)
      if (thread?.usable && wide && size >= threadFrom && k > 0) return searchOnThread(thread, query, k, allowed)
      return search(query, k, allowed)
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
    async keptScores(query) {
      while (queued.length > 0) await applied()
      kept.keep(query, space.capacity)
      return keptScore
    },
  }
}

/**
 * One query's score against each row, kept by row (NaN: not worked out since the row was written). The
 * score is the scan's (scan.ts scoreRows): the int8 dot of the query's row with the row, exact in int32
 * whichever kernel sums it, times the row's factor and the query's, rounded to float32.
 */
function createKeptScores(dim: number) {
  /** The query (a copy) and the array it was last given as, which a caller asking again usually passes. */
  let query: Float32Array | null = null
  let given: Float32Array | null = null
  const row = new Int8Array(dim)
  let factor = 0
  let scores = new Float32Array(0)
  const same = (v: Float32Array) => v === given || (query !== null && v.length === query.length && v.every((x, d) => x === query![d]))
  return {
    /** From now on the scores are `v`'s (those kept stay if it is the same query). */
    keep(v: Float32Array, capacity: number) {
      if (!same(v)) {
        query = Float32Array.from(v)
        factor = quantize(query, row, 0)
        scores = new Float32Array(capacity).fill(NaN)
      }
      given = v
    },
    grow(capacity: number) {
      if (query) scores = grown(scores, new Float32Array(capacity).fill(NaN))
    },
    /** Row p changed. */
    written(p: number) {
      if (query) scores[p] = NaN
    },
    /** Row `from` moved to row `to`. */
    moved(from: number, to: number) {
      if (query) scores[to] = scores[from]
    },
    /** Row p's score (rows of `rowBytes`, their factors `scales`). */
    score(p: number, rows: Int8Array, rowBytes: number, scales: Float32Array): number {
      const kept = scores[p]
      if (!Number.isNaN(kept)) return kept
      const at = p * rowBytes
      let dot = 0
      for (let d = 0; d < dim; d++) dot += row[d] * rows[at + d]
      return (scores[p] = Math.fround(dot * scales[p] * factor))
    },
  }
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
  // Shared: the scan thread reads it (the query's code is taken against it).
  const at = sharedFloat32(dim)
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
