import { OnnxType, type OnnxGraph, type OnnxNode, type OnnxTensor } from './onnx-proto.ts'

/**
 * The graph with its weight matrix products in int8: each MatMul whose right operand is a 2-D float
 * initializer multiplies quantized activations with the weights stored as symmetric int8 (a scale per column, or
 * one per matrix), either through ONNX Runtime's contrib op DynamicQuantizeMatMul (one activation scale a call) or
 * through a scale per row and MatMulInteger (`activations: 'row'`, what questions use). The int8 weights are derived
 * here from the fp32 ones, so nothing new is shipped or downloaded. Every vector changes a little
 * (docs/load-history.md, stops 32-35: cosine to fp32 and search quality); the attention's products of two
 * activations stay fp32.
 */
export type Int8Scales = 'column' | 'tensor'

export interface Int8Options {
  scales?: Int8Scales
  /**
   * 7: weights in [-63, 63]. ONNX Runtime's AVX2 kernel (no VNNI) adds pairs of uint8 × int8 products in
   * int16, which 8-bit weights can overflow and 7-bit ones cannot, so 7-bit weights give the same sums on
   * every x86 CPU (docs/load-history.md, stop 33).
   */
  bits?: 7 | 8
  /**
   * `uint8`: the same weights stored shifted by 128, with 128 as their zero point: ONNX Runtime then multiplies
   * uint8 by uint8 in 16-bit lanes, exact on every x86 CPU, where int8 weights take its uint8 × int8 kernel.
   */
  storage?: 'int8' | 'uint8'
  /** Weight products left in fp32, by their weight. */
  keep?: (weight: OnnxTensor) => boolean
  /**
   * How the activations are quantized. `call`: ONNX Runtime's DynamicQuantizeMatMul, one scale for the whole call, so
   * a question's vector depends on the questions it shares the model's call with. `row`: a scale per row (per
   * token), computed in the graph before an integer product (MatMulInteger), so each question's vector is the same
   * whatever shares its call.
   */
  activations?: 'call' | 'row'
}

export function quantizeWeightMatMuls(graph: OnnxGraph, { scales = 'column', bits = 8, storage = 'int8', keep = () => false, activations = 'call' }: Int8Options = {}): OnnxGraph {
  const initializers = new Map(graph.initializers.map((t) => [t.name, t]))
  const uses = new Map<string, number>()
  for (const n of graph.nodes) for (const i of n.inputs) uses.set(i, (uses.get(i) ?? 0) + 1)
  const replaced = new Set<string>()
  const added: OnnxTensor[] = activations === 'row' ? [...ROW_CONSTANTS] : []
  const nodes = graph.nodes.flatMap((n): OnnxNode[] => {
    const w = n.op === 'MatMul' ? initializers.get(n.inputs[1]) : undefined
    if (!w || w.type !== OnnxType.Float || w.dims.length !== 2 || uses.get(w.name) !== 1 || keep(w)) return [n]
    const { weights: signed, scale } = quantizeColumns(w, scales, bits)
    replaced.add(w.name)
    const { weights, zero } = storage === 'uint8' ? asUint8(signed, scale.dims) : { weights: signed, zero: null }
    added.push(weights, scale, ...(zero ? [zero] : []))
    if (activations === 'row') return perRowProduct(n.inputs[0], weights.name, zero?.name, scale.name, n.outputs[0], `${w.name}#row`)
    const inputs = [n.inputs[0], weights.name, scale.name, ...(zero ? [zero.name] : [])]
    return [{ op: 'DynamicQuantizeMatMul', domain: 'com.microsoft', inputs, outputs: n.outputs }]
  })
  return { ...graph, nodes, initializers: [...graph.initializers.filter((t) => !replaced.has(t.name)), ...added] }
}

const scalar = (name: string, value: number): OnnxTensor => ({ name, type: OnnxType.Float, dims: [], data: new Uint8Array(new Float32Array([value]).buffer) })
const ROW_CONSTANTS: readonly OnnxTensor[] = [
  { name: 'int8#last-axis', type: OnnxType.Int64, dims: [1], data: new Uint8Array(new BigInt64Array([-1n]).buffer) },
  scalar('int8#127', 127),
  // A row of zeros gets this scale instead of 0, so it divides to zeros rather than NaN.
  scalar('int8#smallest', 1e-30),
  scalar('int8#128', 128),
  { name: 'int8#zero', type: OnnxType.Uint8, dims: [], data: new Uint8Array([128]) },
]

/**
 * x · w with x quantized a row at a time (scale: the row's largest magnitude / 127; stored as uint8 around a zero
 * point of 128, which takes ONNX Runtime's fast kernel where int8 × int8 ran at a fifth of fp32's speed) and w's
 * int8 columns: (q(x) · q(w)) in int32, times the row's scale and the column's.
 */
function perRowProduct(x: string, weights: string, weightZero: string | undefined, columnScale: string, out: string, p: string): OnnxNode[] {
  return [
    { op: 'Abs', inputs: [x], outputs: [`${p}/abs`] },
    { op: 'ReduceMax', inputs: [`${p}/abs`, 'int8#last-axis'], outputs: [`${p}/max`], attrs: { keepdims: 1 } },
    { op: 'Div', inputs: [`${p}/max`, 'int8#127'], outputs: [`${p}/step0`] },
    { op: 'Max', inputs: [`${p}/step0`, 'int8#smallest'], outputs: [`${p}/step`] },
    { op: 'Div', inputs: [x, `${p}/step`], outputs: [`${p}/scaled`] },
    { op: 'Round', inputs: [`${p}/scaled`], outputs: [`${p}/rounded`] },
    { op: 'Add', inputs: [`${p}/rounded`, 'int8#128'], outputs: [`${p}/shifted`] },
    { op: 'Cast', inputs: [`${p}/shifted`], outputs: [`${p}/q`], attrs: { to: OnnxType.Uint8 } },
    { op: 'MatMulInteger', inputs: [`${p}/q`, weights, 'int8#zero', ...(weightZero ? [weightZero] : [])], outputs: [`${p}/sums`] },
    { op: 'Cast', inputs: [`${p}/sums`], outputs: [`${p}/float`], attrs: { to: OnnxType.Float } },
    { op: 'Mul', inputs: [`${p}/float`, `${p}/step`], outputs: [`${p}/rows`] },
    { op: 'Mul', inputs: [`${p}/rows`, columnScale], outputs: [out] },
  ]
}

/** A [rows, columns] float matrix as signed integers of `bits` bits (8: [-127, 127]) with its scales: w ≈ q * scale. */
export function quantizeColumns(w: OnnxTensor, scales: Int8Scales, bits: 7 | 8 = 8): { weights: OnnxTensor; scale: OnnxTensor } {
  const [rows, columns] = w.dims
  const top = 2 ** (bits - 1) - 1
  const values = new Float32Array(w.data.buffer.slice(w.data.byteOffset, w.data.byteOffset + w.data.length))
  const largest = new Float32Array(columns)
  for (let i = 0; i < values.length; i++) largest[i % columns] = Math.max(largest[i % columns], Math.abs(values[i]))
  const perColumn = scales === 'column'
  const step = perColumn
    ? largest.map((m) => (m > 0 ? m / top : 1))
    : new Float32Array([largest.reduce((a, b) => Math.max(a, b), 0) / top || 1])
  const q = new Int8Array(rows * columns)
  // Plain loops: ~4.7 M weights, and a callback each cost ~0.2 s of the model's load.
  for (let i = 0; i < values.length; i++) q[i] = Math.max(-top, Math.min(top, Math.round(values[i] / step[perColumn ? i % columns : 0])))
  return {
    weights: { name: `${w.name}#int8`, type: OnnxType.Int8, dims: [rows, columns], data: new Uint8Array(q.buffer) },
    scale: { name: `${w.name}#scale`, type: OnnxType.Float, dims: perColumn ? [columns] : [], data: new Uint8Array(step.buffer) },
  }
}

/** Int8 weights as uint8 (q + 128), and their zero point (128, shaped as the scales). */
function asUint8(signed: OnnxTensor, scaleDims: readonly number[]): { weights: OnnxTensor; zero: OnnxTensor } {
  const data = signed.data.map((b) => (b + 128) & 0xff)
  const zero = new Uint8Array(scaleDims.length ? scaleDims[0] : 1).fill(128)
  return { weights: { ...signed, type: OnnxType.Uint8, data }, zero: { name: `${signed.name}#zero`, type: OnnxType.Uint8, dims: [...scaleDims], data: zero } }
}

/**
 * The int8 model that encodes questions (encoder-precision.ts; SHEAF_ENCODER_INT8=off for fp32): 8-bit weights, a scale per column,
 * activations a row at a time (a question's vector is then the same alone or sharing the model's call), every weight product. 7-bit weights
 * (the same sums on CPUs without VNNI) with layer 0's products in fp32 moved the first result of 3.1% of the
 * answers at 100,000 posts, past the 3% allowed; 8-bit moved 2.2% (docs/load-history.md, stops 32-33).
 */
export const QUESTION_INT8: Int8Options = { scales: 'column', bits: 8, activations: 'row' }
