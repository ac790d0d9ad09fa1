/**
 * Memory for the related-post index's vectors, and the dot products over it. The vectors live in one
 * shared WebAssembly memory (a SharedArrayBuffer underneath), so every worker reads the same copy and
 * a 128-bit SIMD kernel computes one query row against a run of rows: ~8x the plain loop, which
 * remains the fallback where WebAssembly SIMD is missing.
 *
 * Layout (bytes): [0, 64) a slot counter; then SLOTS output slots of CHUNK floats (one per thread
 * that opens the index, for kernel results); then the vectors, `stride` floats per row; then the
 * centroids the index clusters them around (and a few scratch rows for building).
 */
export const CHUNK = 4096
const SLOTS = 16
const SLOTS_AT = 64
const PAGE = 65536

export interface RelatedSpace {
  /** A shared WebAssembly.Memory over `buffer`, or null when the kernel is the plain-JS one. */
  memory: WasmMemory | null
  buffer: SharedArrayBuffer
  dim: number
  /** Floats per row: dim rounded up to a multiple of 4 (16-byte SIMD lanes); the padding stays 0. */
  stride: number
  rows: number
  vectorsAt: number
  centroidsAt: number
  centroidRows: number
}

/** out[i] = dot(row at byte `q`, row at byte `m + i * rowBytes`) for i < rows; `out` is a byte offset. */
export type DotsFn = (q: number, m: number, rows: number, rowBytes: number, out: number) => void

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

// (func $dots (param $q $m $n $d $out i32) (local $k i32) (local $acc $qv $mv v128)): f32x4 multiply-adds
// over 16-byte steps of each row, the four lanes summed into out[i]. Same shape as search/dot-kernel.ts (int8).
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
  0x20, 6, 0x20, 7, 0x20, 8, SIMD, 0xe6, 0x01, SIMD, 0xe4, 0x01, 0x21, 6, // acc += qv * mv (f32x4)
  0x20, 5, 0x41, 16, 0x6a, 0x22, 5, 0x20, 3, 0x49, 0x0d, 0, // k += 16; if k < d continue
  0x0b, // end $cols
  0x20, 4,
  0x20, 6, SIMD, 0x1f, 0, 0x20, 6, SIMD, 0x1f, 1, 0x92, 0x20, 6, SIMD, 0x1f, 2, 0x92, 0x20, 6, SIMD, 0x1f, 3, 0x92,
  0x38, 2, 0, // out[i] = lanes summed (f32.store)
  0x20, 4, 0x41, 4, 0x6a, 0x21, 4, // out += 4
  0x20, 1, 0x20, 3, 0x6a, 0x21, 1, // m += d
  0x20, 2, 0x41, 1, 0x6b, 0x21, 2, // n -= 1
  0x0c, 0, // continue $rows
  0x0b, 0x0b, 0x0b, // end $rows, $exit, func
]

const MAX_PAGES = 65536
const moduleBytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [1, 0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]),
  // (import "env" "mem" (memory 1 65536 shared))
  ...section(2, [1, ...name('env'), ...name('mem'), 0x02, 0x03, ...leb(1), ...leb(MAX_PAGES)]),
  ...section(3, [1, 0]),
  ...section(7, [1, ...name('dots'), 0, 0]),
  ...section(10, [1, ...leb(body.length), ...body]),
])

/** The slice of the WebAssembly API used here (the Node-only lib set has no typings for it). */
export interface WasmMemory {
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

const align = (n: number, to: number) => Math.ceil(n / to) * to

/** Room for `rows` vectors of `dim` floats and `centroidRows` centroids; the vectors start zeroed. */
export function createRelatedSpace(rows: number, dim: number, centroidRows: number, { simd = true } = {}): RelatedSpace {
  const stride = align(Math.max(1, dim), 4)
  const vectorsAt = align(SLOTS_AT + SLOTS * CHUNK * 4, 64)
  const centroidsAt = align(vectorsAt + rows * stride * 4, 64)
  const bytes = centroidsAt + centroidRows * stride * 4
  const pages = Math.max(1, Math.ceil(bytes / PAGE))
  let memory: WasmMemory | null = null
  if (simd && kernelModule() && pages <= MAX_PAGES) {
    try {
      memory = new wasm!.Memory({ initial: pages, maximum: pages, shared: true })
    } catch {
      memory = null
    }
  }
  const buffer = memory ? (memory.buffer as unknown as SharedArrayBuffer) : new SharedArrayBuffer(pages * PAGE)
  return { memory, buffer, dim, stride, rows, vectorsAt, centroidsAt, centroidRows }
}

/** The vectors, row i at [i * stride, i * stride + dim). */
export const spaceVectors = (s: RelatedSpace): Float32Array => new Float32Array(s.buffer, s.vectorsAt, s.rows * s.stride)
export const spaceCentroids = (s: RelatedSpace): Float32Array => new Float32Array(s.buffer, s.centroidsAt, s.centroidRows * s.stride)

/**
 * This thread's kernel over a space, and its output slot: `out` holds up to CHUNK results of the last
 * call, which wrote them at byte offset `outAt`.
 */
export function openKernel(s: RelatedSpace): { dots: DotsFn; out: Float32Array; outAt: number } {
  const slot = Atomics.add(new Int32Array(s.buffer, 0, 1), 0, 1) % SLOTS
  const outAt = SLOTS_AT + slot * CHUNK * 4
  const out = new Float32Array(s.buffer, outAt, CHUNK)
  const mod = s.memory ? kernelModule() : null
  if (mod && s.memory) {
    const dots = new wasm!.Instance(mod, { env: { mem: s.memory } }).exports.dots as DotsFn
    return { dots, out, outAt }
  }
  const f = new Float32Array(s.buffer)
  const dots: DotsFn = (q, m, rows, rowBytes, o) => {
    const qi = q >> 2
    const width = rowBytes >> 2
    for (let i = 0; i < rows; i++) {
      const mi = (m >> 2) + i * width
      let acc = 0
      for (let d = 0; d < width; d++) acc += f[qi + d] * f[mi + d]
      f[(o >> 2) + i] = acc
    }
  }
  return { dots, out, outAt }
}
