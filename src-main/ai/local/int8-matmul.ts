import { OnnxType, type OnnxGraph, type OnnxNode, type OnnxTensor } from './onnx-proto.ts'

/**
 * The graph with its weight matrix products in int8: each MatMul whose right operand is a 2-D float
 * initializer becomes ONNX Runtime's contrib op DynamicQuantizeMatMul (com.microsoft), which quantizes
 * the activations to uint8 at run time and multiplies them with the weights stored as symmetric int8
 * (a scale per column, or one per matrix). The int8 weights are derived here from the fp32 ones, so
 * nothing new is shipped or downloaded. Every vector changes a little (docs/load-history.md, stops 32-33: cosine to
 * fp32 and search quality); the attention's products of two activations stay fp32.
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
}

export function quantizeWeightMatMuls(graph: OnnxGraph, { scales = 'column', bits = 8, storage = 'int8', keep = () => false }: Int8Options = {}): OnnxGraph {
  const initializers = new Map(graph.initializers.map((t) => [t.name, t]))
  const uses = new Map<string, number>()
  for (const n of graph.nodes) for (const i of n.inputs) uses.set(i, (uses.get(i) ?? 0) + 1)
  const replaced = new Set<string>()
  const added: OnnxTensor[] = []
  const nodes = graph.nodes.map((n): OnnxNode => {
    const w = n.op === 'MatMul' ? initializers.get(n.inputs[1]) : undefined
    if (!w || w.type !== OnnxType.Float || w.dims.length !== 2 || uses.get(w.name) !== 1 || keep(w)) return n
    const { weights: signed, scale } = quantizeColumns(w, scales, bits)
    const { weights, zero } = storage === 'uint8' ? asUint8(signed, scale.dims) : { weights: signed, zero: null }
    added.push(weights, scale, ...(zero ? [zero] : []))
    replaced.add(w.name)
    const inputs = [n.inputs[0], weights.name, scale.name, ...(zero ? [zero.name] : [])]
    return { op: 'DynamicQuantizeMatMul', domain: 'com.microsoft', inputs, outputs: n.outputs }
  })
  return { ...graph, nodes, initializers: [...graph.initializers.filter((t) => !replaced.has(t.name)), ...added] }
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
 * The int8 model that encodes questions when SHEAF_ENCODER_INT8 asks (encoder-precision.ts): 8-bit weights, a scale per column, every weight product. 7-bit weights
 * (the same sums on CPUs without VNNI) with layer 0's products in fp32 moved the first result of 3.1% of the
 * answers at 100,000 posts, past the 3% allowed; 8-bit moved 2.2% (docs/load-history.md, stops 32-33).
 */
export const QUESTION_INT8: Int8Options = { scales: 'column', bits: 8 }
