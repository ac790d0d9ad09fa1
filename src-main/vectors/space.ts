/**
 * Where post vectors live in memory: int8 rows (one scale per row) in a shared WebAssembly memory, and
 * the one kernel module that reads them. Shared memory (a SharedArrayBuffer underneath) lets every
 * worker thread read the same copy; int8 holds 100,000 x 512 dims in 51 MB where float32 needs 205 MB.
 * The module multiplies one row against a run of rows in 128-bit SIMD (`dots`, ~8x the plain loop,
 * which stays the fallback where WebAssembly SIMD or shared memory is missing), and finds the compact
 * codes within some bits of one (`near`, i64.popcnt): a space made with `codes` also holds one bit per
 * dimension of each row, a first pass 8x smaller than the rows. The module is assembled here, so no
 * build step or binary file is needed.
 *
 * Layout (bytes): [0, 64) a slot counter; SLOTS thread slots, each CHUNK int32 results, a query row,
 * a query code and CHUNK int32 row numbers (dotsAt's list); `extraRows` rows (a caller's own, e.g. centroids); `capacity` rows; `capacity` codes.
 */
export const CHUNK = 4096
const SLOTS = 16
const SLOTS_AT = 64
const PAGE = 65536
const MAX_PAGES = 65536

/** out[i] = sum_k q[k] * m[i * rowBytes + k] (int8, summed in int32) for i < rows; all byte offsets. */
export type DotsFn = (q: number, m: number, rows: number, rowBytes: number, out: number) => void
/**
 * For each of `rows` codes of `codeBytes` from byte m, the bits it differs from the code at q in; those
 * within `t` written to out as int32 `i << 16 | bits` in row order; returns how many.
 */
export type NearFn = (q: number, m: number, rows: number, codeBytes: number, out: number, t: number) => number
/**
 * out[j] = the dot of the row at q with row list[j] of the rows from byte m, for j < n (n a multiple of
 * DOTS_AT_GROUP; list and out int32 at those byte offsets). Several rows at a time, so the memory reads of
 * all are under way together: rows picked across a 51 MB block miss the cache, and one row's reads alone
 * left the core waiting. Eight rather than four: the related-post index reads ~2,500 rows a post this way
 * from search's rows (bench/related-index.ts, docs/understanding.md "Stop 27").
 */
export const DOTS_AT_GROUP = 8
export type DotsAtFn = (q: number, m: number, list: number, n: number, rowBytes: number, out: number) => void

const leb = (n: number): number[] => {
  const out: number[] = []
  do {
    let b = n & 0x7f
    n >>>= 7
    if (n !== 0) b |= 0x80
    out.push(b)
  } while (n !== 0)
  return out
}
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body]
const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))]
const SIMD = 0xfd

// (func $dots (param $q $m $n $d $out i32) (local $k i32) (local $acc $qv $mv v128)): 16 int8 lanes at a
// time, widened to int16, multiplied and pair-summed into four int32 lanes (i32x4.dot_i16x8_s).
const body = [
  2, 1, 0x7f, 3, 0x7b, // locals: $k = 5; $acc = 6, $qv = 7, $mv = 8
  0x02, 0x40, // block $exit
  0x03, 0x40, // loop $rows
  0x20, 2, 0x45, 0x0d, 1, // if n == 0 break
  SIMD, 0x0c, ...new Array<number>(16).fill(0), 0x21, 6, // acc = 0
  0x41, 0, 0x21, 5, // k = 0
  0x03, 0x40, // loop $cols
  0x20, 0, 0x20, 5, 0x6a, SIMD, 0x00, 0, 0, 0x21, 7, // qv = load(q + k)
  0x20, 1, 0x20, 5, 0x6a, SIMD, 0x00, 0, 0, 0x21, 8, // mv = load(m + k)
  0x20, 6,
  0x20, 7, SIMD, 0x87, 0x01, 0x20, 8, SIMD, 0x87, 0x01, SIMD, 0xba, 0x01, SIMD, 0xae, 0x01,
  0x20, 7, SIMD, 0x88, 0x01, 0x20, 8, SIMD, 0x88, 0x01, SIMD, 0xba, 0x01, SIMD, 0xae, 0x01,
  0x21, 6, // acc += dot(low halves) + dot(high halves)
  0x20, 5, 0x41, 16, 0x6a, 0x22, 5, 0x20, 3, 0x49, 0x0d, 0, // k += 16; if k < d continue
  0x0b, // end $cols
  0x20, 4,
  0x20, 6, SIMD, 0x1b, 0, 0x20, 6, SIMD, 0x1b, 1, 0x6a, 0x20, 6, SIMD, 0x1b, 2, 0x6a, 0x20, 6, SIMD, 0x1b, 3, 0x6a,
  0x36, 2, 0, // out[i] = lanes summed (i32.store)
  0x20, 4, 0x41, 4, 0x6a, 0x21, 4, // out += 4
  0x20, 1, 0x20, 3, 0x6a, 0x21, 1, // m += d
  0x20, 2, 0x41, 1, 0x6b, 0x21, 2, // n -= 1
  0x0c, 0, // continue $rows
  0x0b, 0x0b, 0x0b, // end $rows, $exit, func
]

// The end of $near's and $near64's row loop, given their locals' numbers and the row's distance on the stack (teed
// into $bits): the row kept when within $t (its number and distance stored at out[c]), the next row, and after the
// loop the count kept.
const keepRowAndNext = (i: number, c: number, bits: number) => [
  0x20, 5, 0x4d, // if bits <= t
  0x04, 0x40,
  0x20, 4, 0x20, c, 0x41, 2, 0x74, 0x6a, // out + c * 4
  0x20, i, 0x41, 16, 0x74, 0x20, bits, 0x72, // i << 16 | bits
  0x36, 2, 0, // i32.store
  0x20, c, 0x41, 1, 0x6a, 0x21, c, // c += 1
  0x0b, // end if
  0x20, 1, 0x20, 3, 0x6a, 0x21, 1, // m += d
  0x20, i, 0x41, 1, 0x6a, 0x21, i, // i += 1
  0x0c, 0, // continue $rows
  0x0b, 0x0b, // end $rows, $exit
  0x20, c, 0x0b, // return c
]

// (func $near (param $q $m $n $d $out $t i32) (result i32) (local $k i32) (local $acc i64) (local $i $c $bits i32)):
// each row's bits differing from q, 16 code bytes at a time as two i64 (xor, i64.popcnt: one x86 instruction;
// i8x16.popcnt is emulated there and measured ~1.5x slower here), then only rows within $t written out.
const nearBody = [
  3, 1, 0x7f, 1, 0x7e, 3, 0x7f, // locals: $k = 6; $acc = 7; $i = 8, $c = 9, $bits = 10
  0x02, 0x40, // block $exit
  0x03, 0x40, // loop $rows
  0x20, 8, 0x20, 2, 0x4f, 0x0d, 1, // if i >= n break
  0x42, 0, 0x21, 7, // acc = 0
  0x41, 0, 0x21, 6, // k = 0
  0x03, 0x40, // loop $cols
  0x20, 7,
  0x20, 0, 0x20, 6, 0x6a, 0x29, 3, 0, 0x20, 1, 0x20, 6, 0x6a, 0x29, 3, 0, 0x85, 0x7b, 0x7c, // acc += popcnt(q[k..k+8] ^ m[k..k+8])
  0x20, 0, 0x20, 6, 0x6a, 0x29, 3, 8, 0x20, 1, 0x20, 6, 0x6a, 0x29, 3, 8, 0x85, 0x7b, 0x7c, // and of the next 8 bytes
  0x21, 7,
  0x20, 6, 0x41, 16, 0x6a, 0x22, 6, 0x20, 3, 0x49, 0x0d, 0, // k += 16; if k < d continue
  0x0b, // end $cols
  0x20, 7, 0xa7, 0x22, 10, // bits = acc (left on the stack)
  ...keepRowAndNext(8, 9, 10),
]

// (func $dotsAt (param $q $m $list $n $d $out i32) (local $k i32) (local $row i32 x8) (local $acc v128 x8) (local $qv $mv v128)
// (local $next i32)): $dots over the rows listed, DOTS_AT_GROUP rows at a time, each group's sums stored in out in turn.
const ROW = 7 // the rows' locals: 7 .. 7 + DOTS_AT_GROUP - 1
const ACC = ROW + DOTS_AT_GROUP // their sums' locals
const QV = ACC + DOTS_AT_GROUP
const MV = QV + 1
const rowOf = (r: number) => [0x20, 1, 0x20, 2, 0x28, 2, r * 4, 0x20, 4, 0x6c, 0x6a, 0x21, ROW + r] // row r = m + list[r] * d
const zero = (r: number) => [SIMD, 0x0c, ...new Array<number>(16).fill(0), 0x21, ACC + r]
const dotInto = (r: number) => [
  0x20, ROW + r, 0x20, 6, 0x6a, SIMD, 0x00, 0, 0, 0x21, MV, // mv = load(row r + k)
  0x20, ACC + r,
  0x20, QV, SIMD, 0x87, 0x01, 0x20, MV, SIMD, 0x87, 0x01, SIMD, 0xba, 0x01, SIMD, 0xae, 0x01,
  0x20, QV, SIMD, 0x88, 0x01, 0x20, MV, SIMD, 0x88, 0x01, SIMD, 0xba, 0x01, SIMD, 0xae, 0x01,
  0x21, ACC + r,
]
const store = (r: number) => [0x20, 5, ...[0, 1, 2, 3].flatMap((lane) => [0x20, ACC + r, SIMD, 0x1b, lane, ...(lane ? [0x6a] : [])]), 0x36, 2, r * 4]
const each = (f: (r: number) => number[]) => Array.from({ length: DOTS_AT_GROUP }, (_, r) => f(r)).flat()
const NEXT = MV + 1 // a row of the next group (a local after the rest)
// Each line of the next group's rows read once (a byte, dropped) as the group starts, so their misses are under way while
// this group's are summed (WebAssembly has no prefetch): the rescoring's ~2,100 rows took 0.20 ms instead of 0.27
// in-process (docs/load-history.md, stop 32, scan10), the same sums.
const touchNext = (r: number) => [
  0x20, 1, 0x20, 2, 0x28, 2, (DOTS_AT_GROUP + r) * 4, 0x20, 4, 0x6c, 0x6a, 0x21, NEXT, // next = m + list[G + r] * d
  0x41, 0, 0x21, 6, // k = 0
  0x03, 0x40, // loop $lines
  0x20, NEXT, 0x20, 6, 0x6a, 0x2d, 0, 0, 0x1a, // i32.load8_u(next + k), dropped
  0x20, 6, 0x41, 0xc0, 0x00, 0x6a, 0x22, 6, 0x20, 4, 0x49, 0x0d, 0, // k += 64; if k < d continue
  0x0b, // end $lines
]
const dotsAtBody = [
  3, 1 + DOTS_AT_GROUP, 0x7f, DOTS_AT_GROUP + 2, 0x7b, 1, 0x7f, // locals: $k = 6, the rows, their sums, $qv, $mv, $next
  0x02, 0x40, // block $exit
  0x03, 0x40, // loop $groups
  0x20, 3, 0x45, 0x0d, 1, // if n == 0 break
  0x20, 3, 0x41, DOTS_AT_GROUP, 0x4b, 0x04, 0x40, ...each(touchNext), 0x0b, // if n > G: the next group's lines
  ...each(rowOf), ...each(zero),
  0x41, 0, 0x21, 6, // k = 0
  0x03, 0x40, // loop $cols
  0x20, 0, 0x20, 6, 0x6a, SIMD, 0x00, 0, 0, 0x21, QV, // qv = load(q + k)
  ...each(dotInto),
  0x20, 6, 0x41, 16, 0x6a, 0x22, 6, 0x20, 4, 0x49, 0x0d, 0, // k += 16; if k < d continue
  0x0b, // end $cols
  ...each(store), // out[r] = row r's lanes summed
  0x20, 5, 0x41, DOTS_AT_GROUP * 4, 0x6a, 0x21, 5, // out += DOTS_AT_GROUP
  0x20, 2, 0x41, DOTS_AT_GROUP * 4, 0x6a, 0x21, 2, // list += DOTS_AT_GROUP
  0x20, 3, 0x41, DOTS_AT_GROUP, 0x6b, 0x21, 3, // n -= DOTS_AT_GROUP
  0x0c, 0, // continue $groups
  0x0b, 0x0b, 0x0b, // end $groups, $exit, func
]

// (func $near64 (param $q $m $n $d $out $t i32) (result i32) (local $i $c $bits i32) (local $q0 .. $q7 i64)): $near
// for 64-byte codes (512 dims), the query's eight words held in locals and each row's read in one run: the pass is
// compute-bound (as fast over 256 KB of codes again as over 6.4 MB), and the loop and the query's loads were half of it.
const QWORD = 9 // the query's words' locals: 9 .. 16
const near64Body = [
  2, 3, 0x7f, 8, 0x7e, // locals: $i = 6, $c = 7, $bits = 8; $q0 .. $q7 = 9 .. 16
  ...Array.from({ length: 8 }, (_, j) => [0x20, 0, 0x29, 3, 8 * j, 0x21, QWORD + j]).flat(), // qj = q[8j..8j+8]
  0x02, 0x40, // block $exit
  0x03, 0x40, // loop $rows
  0x20, 6, 0x20, 2, 0x4f, 0x0d, 1, // if i >= n break
  0x20, QWORD, 0x20, 1, 0x29, 3, 0, 0x85, 0x7b, // popcnt(q0 ^ m[0..8])
  ...Array.from({ length: 7 }, (_, j) => [0x20, QWORD + j + 1, 0x20, 1, 0x29, 3, 8 * (j + 1), 0x85, 0x7b, 0x7c]).flat(), // + popcnt(qj ^ m[8j..8j+8])
  0xa7, 0x22, 8, // bits = the sum (left on the stack)
  ...keepRowAndNext(6, 7, 8),
]

const moduleBytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [3, 0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0, 0x60, 6, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f, 0x60, 6, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]),
  // (import "env" "mem" (memory 1 65536 shared))
  ...section(2, [1, ...name('env'), ...name('mem'), 0x02, 0x03, ...leb(1), ...leb(MAX_PAGES)]),
  ...section(3, [4, 0, 1, 2, 1]),
  ...section(7, [4, ...name('dots'), 0, 0, ...name('near'), 0, 1, ...name('dotsAt'), 0, 2, ...name('near64'), 0, 3]),
  ...section(10, [4, ...leb(body.length), ...body, ...leb(nearBody.length), ...nearBody, ...leb(dotsAtBody.length), ...dotsAtBody,
    ...leb(near64Body.length), ...near64Body]),
])

/** The slice of the WebAssembly API used here (the Node-only lib set has no typings for it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> }
  Memory: new (d: { initial: number; maximum: number; shared: boolean }) => WasmMemory
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly

let compiled: object | null | undefined
/** The kernel's module, compiled once per thread; null where WebAssembly SIMD or shared memory is missing. */
const kernelModule = (): object | null => {
  if (compiled === undefined) {
    try {
      compiled = wasm?.validate(moduleBytes) ? new wasm.Module(moduleBytes) : null
    } catch {
      compiled = null
    }
  }
  return compiled
}

/** Whether this runtime runs the SIMD kernel (Node 22 and Electron do). */
export const simdAvailable = (): boolean => kernelModule() !== null

const align = (n: number, to: number) => Math.ceil(n / to) * to

/** A block of int8 rows; plain data (a SharedArrayBuffer and numbers), so it can be posted to a worker. */
export interface VectorSpace {
  /** The shared WebAssembly.Memory over `buffer`, or null when the kernel is the plain-JS one. */
  memory: WasmMemory | null
  buffer: SharedArrayBuffer
  dim: number
  /** Bytes per row: dim rounded up to 16 (the SIMD width); the padding stays 0. */
  rowBytes: number
  /** Bytes per code (one bit per dimension, rounded up to 16), or 0 for a space without codes. */
  codeBytes: number
  /** Rows before `rowsAt` for the caller's own use (extraAt). */
  extraRows: number
  extraAt: number
  capacity: number
  rowsAt: number
  codesAt: number
}

/**
 * Room for `capacity` rows of `dim` (zeroed), `extraRows` more and, with `codes`, a code per row;
 * `simd: false` forces the plain-JS kernel.
 */
export function createSpace(dim: number, capacity: number, { extraRows = 0, codes = false, simd = true } = {}): VectorSpace {
  const rowBytes = align(Math.max(1, dim), 16)
  const codeBytes = codes ? align(Math.ceil(Math.max(1, dim) / 8), 16) : 0
  const extraAt = align(SLOTS_AT + SLOTS * slotBytes(rowBytes, codeBytes), 64)
  const rowsAt = extraAt + extraRows * rowBytes
  const codesAt = rowsAt + capacity * rowBytes
  const pages = Math.max(1, Math.ceil((codesAt + capacity * codeBytes) / PAGE))
  let memory: WasmMemory | null = null
  if (simd && kernelModule() && pages <= MAX_PAGES) {
    try {
      memory = new wasm!.Memory({ initial: pages, maximum: pages, shared: true })
    } catch {
      memory = null
    }
  }
  const buffer = memory ? (memory.buffer as unknown as SharedArrayBuffer) : new SharedArrayBuffer(pages * PAGE)
  return { memory, buffer, dim, rowBytes, codeBytes, extraRows, extraAt, capacity, rowsAt, codesAt }
}

const slotBytes = (rowBytes: number, codeBytes: number) => CHUNK * 4 + rowBytes + codeBytes + CHUNK * 4

/** The rows, row i at [i * rowBytes, i * rowBytes + dim). */
export const spaceRows = (s: VectorSpace): Int8Array => new Int8Array(s.buffer, s.rowsAt, s.capacity * s.rowBytes)
export const spaceExtra = (s: VectorSpace): Int8Array => new Int8Array(s.buffer, s.extraAt, s.extraRows * s.rowBytes)
/** The codes, row i's at [i * codeBytes, (i + 1) * codeBytes): bit d set where dimension d lies above a centre. */
export const spaceCodes = (s: VectorSpace): Uint8Array => new Uint8Array(s.buffer, s.codesAt, s.capacity * s.codeBytes)

/**
 * Writes `v` as int8 into `into` at `at` and returns the factor that turns an int8 dot product with
 * it back into a cosine share (the largest component maps to 127; the norm is divided out).
 */
export function quantize(v: ArrayLike<number>, into: Int8Array, at: number): number {
  let norm = 0
  let max = 0
  for (let d = 0; d < v.length; d++) {
    norm += v[d] * v[d]
    max = Math.max(max, Math.abs(v[d]))
  }
  norm = Math.sqrt(norm)
  if (norm === 0 || max === 0) {
    into.fill(0, at, at + v.length)
    return 0
  }
  const s = max / 127
  for (let d = 0; d < v.length; d++) into[at + d] = Math.round(v[d] / s)
  return s / norm
}

/**
 * This thread's kernel over a space: its own result slot (`out`, CHUNK int32), query row (`query`, at
 * byte `queryAt`) and query code (`queryCode`, at byte `queryCodeAt`; empty in a space without codes).
 */
export interface Kernel {
  readonly simd: boolean
  dots: DotsFn
  near: NearFn
  dotsAt: DotsAtFn
  out: Int32Array
  outAt: number
  /** Row numbers for dotsAt (CHUNK of them, at byte `listAt`). */
  list: Int32Array
  listAt: number
  query: Int8Array
  queryAt: number
  queryCode: Uint8Array
  queryCodeAt: number
}

/** Typed arrays over shared memory, for arrays that go to other threads beside a space (scales, row lists). */
export const sharedInt32 = (n: number): Int32Array => new Int32Array(new SharedArrayBuffer(Math.max(1, n) * 4), 0, n)
export const sharedFloat32 = (n: number): Float32Array => new Float32Array(new SharedArrayBuffer(Math.max(1, n) * 4), 0, n)

/** The slot kept for the owner's scan thread (scan-thread.ts): readers opened in turn never take it. */
export const SCAN_SLOT = 1
const READERS_FROM = 2

/**
 * The first kernel opened over a space (its owner's) keeps slot 0; the owner's scan thread opens slot
 * SCAN_SLOT by name (`scan`); the others (readers in other threads, e.g. the related-post index over
 * search's rows) take slots READERS_FROM..SLOTS-1 in turn, so a reader never shares the owner's or
 * the scan thread's slot however many have opened before it (the three can run at once).
 */
export function openKernel(s: VectorSpace, { scan = false } = {}): Kernel {
  const opened = scan ? -1 : Atomics.add(new Int32Array(s.buffer, 0, 1), 0, 1)
  const slot = scan ? SCAN_SLOT : opened === 0 ? 0 : READERS_FROM + ((opened - 1) % (SLOTS - READERS_FROM))
  const outAt = SLOTS_AT + slot * slotBytes(s.rowBytes, s.codeBytes)
  const queryAt = outAt + CHUNK * 4
  const queryCodeAt = queryAt + s.rowBytes
  const listAt = queryCodeAt + s.codeBytes
  const views = {
    out: new Int32Array(s.buffer, outAt, CHUNK), outAt, query: new Int8Array(s.buffer, queryAt, s.rowBytes), queryAt,
    queryCode: new Uint8Array(s.buffer, queryCodeAt, s.codeBytes), queryCodeAt, list: new Int32Array(s.buffer, listAt, CHUNK), listAt,
  }
  const mod = s.memory ? kernelModule() : null
  if (mod && s.memory) {
    const { dots, near, dotsAt, near64 } = new wasm!.Instance(mod, { env: { mem: s.memory } }).exports as
      { dots: DotsFn; near: NearFn; dotsAt: DotsAtFn; near64: NearFn }
    return { simd: true, dots, near: s.codeBytes === 64 ? near64 : near, dotsAt, ...views }
  }
  return { simd: false, ...plainKernel(s.buffer), ...views }
}

/** The same functions in plain JS. */
function plainKernel(buffer: SharedArrayBuffer): { dots: DotsFn; near: NearFn; dotsAt: DotsAtFn } {
  const i8 = new Int8Array(buffer)
  const u8 = new Uint8Array(buffer)
  const i32 = new Int32Array(buffer)
  const dots: DotsFn = (q, m, rows, rowBytes, o) => {
    for (let i = 0; i < rows; i++) {
      let acc = 0
      const mi = m + i * rowBytes
      for (let d = 0; d < rowBytes; d++) acc += i8[q + d] * i8[mi + d]
      i32[(o >> 2) + i] = acc
    }
  }
  const near: NearFn = (q, m, rows, codeBytes, o, t) => {
    let c = 0
    for (let i = 0; i < rows; i++) {
      let bits = 0
      const mi = m + i * codeBytes
      for (let d = 0; d < codeBytes; d++) bits += BITS[u8[q + d] ^ u8[mi + d]]
      if (bits <= t) i32[(o >> 2) + c++] = (i << 16) | bits
    }
    return c
  }
  const dotsAt: DotsAtFn = (q, m, list, n, rowBytes, o) => {
    for (let j = 0; j < n; j++) dots(q, m + i32[(list >> 2) + j] * rowBytes, 1, rowBytes, o + j * 4)
  }
  return { dots, near, dotsAt }
}

const BITS = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0
  for (let x = b; x; x >>= 1) n += x & 1
  return n
})

/** `visit(from, len, out)` for each run of at most CHUNK dots of the row at byte `q` with `count` rows from byte `m` (out[j] is row from + j's). */
export function eachChunk(k: Kernel, q: number, m: number, count: number, rowBytes: number, visit: (from: number, len: number, out: Int32Array) => void): void {
  for (let from = 0; from < count; from += CHUNK) {
    const len = Math.min(CHUNK, count - from)
    k.dots(q, m + from * rowBytes, len, rowBytes, k.outAt)
    visit(from, len, k.out)
  }
}

/** `visit(i, dot)` for the dots of the row at byte `q` with `count` rows from byte `m`, CHUNK at a time. */
export function eachDot(k: Kernel, q: number, m: number, count: number, rowBytes: number, visit: (i: number, dot: number) => void): void {
  eachChunk(k, q, m, count, rowBytes, (from, len, out) => {
    for (let i = 0; i < len; i++) visit(from + i, out[i])
  })
}

/** Rows per call of dotsAt (whole groups, with room for the last group's padding). */
export const LIST = CHUNK - DOTS_AT_GROUP

/**
 * The dots of the row at byte `q` with rows `at[from .. from + n)` (n <= LIST) of the rows from byte `m`, through the
 * kernel's dotsAt: afterwards k.list[j] is the row and k.out[j] its dot, for j < n.
 */
export function dotsAtList(k: Kernel, q: number, m: number, at: Int32Array, from: number, n: number, rowBytes: number): void {
  const list = k.list
  list.set(at.subarray(from, from + n))
  const padded = Math.ceil(n / DOTS_AT_GROUP) * DOTS_AT_GROUP // the kernel takes rows in groups: the last row again
  list.fill(list[n - 1], n, padded)
  k.dotsAt(q, m, k.listAt, padded, rowBytes, k.outAt)
}

/**
 * `visit(i, row, dot)` for i in [from, from + count), in that order: the dot of the row at byte `q` with row
 * `row = at[i]` of the rows from byte `m`, through the kernel's dotsAt, a list of rows at a time.
 */
export function eachDotAt(k: Kernel, q: number, m: number, at: Int32Array, from: number, count: number, rowBytes: number,
  visit: (i: number, row: number, dot: number) => void): void {
  const { list, out } = k
  for (let s = from, end = from + count; s < end; s += LIST) {
    const n = Math.min(LIST, end - s)
    dotsAtList(k, q, m, at, s, n, rowBytes)
    for (let j = 0; j < n; j++) visit(s + j, list[j], out[j])
  }
}
