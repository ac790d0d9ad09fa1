import { OnnxType, type OnnxGraph, type OnnxNode, type OnnxTensor } from './onnx-proto.ts'

/**
 * The graph with its weight matrix products in int8: each MatMul whose right operand is a 2-D float
 * initializer becomes ONNX Runtime's contrib op DynamicQuantizeMatMul (com.microsoft), which quantizes
 * the activations to uint8 at run time and multiplies them with the weights stored as symmetric int8
 * (a scale per column, or one per matrix). The int8 weights are derived here from the fp32 ones, so
 * nothing new is shipped or downloaded. Every vector changes a little (docs/load.md, stop 32: cosine to
 * fp32 and search quality); the attention's products of two activations stay fp32.
 */
export type Int8Scales = 'column' | 'tensor'

export function quantizeWeightMatMuls(graph: OnnxGraph, scales: Int8Scales = 'column'): OnnxGraph {
  const initializers = new Map(graph.initializers.map((t) => [t.name, t]))
  const uses = new Map<string, number>()
  for (const n of graph.nodes) for (const i of n.inputs) uses.set(i, (uses.get(i) ?? 0) + 1)
  const replaced = new Set<string>()
  const added: OnnxTensor[] = []
  const nodes = graph.nodes.map((n): OnnxNode => {
    const w = n.op === 'MatMul' ? initializers.get(n.inputs[1]) : undefined
    if (!w || w.type !== OnnxType.Float || w.dims.length !== 2 || uses.get(w.name) !== 1) return n
    const { weights, scale } = quantizeColumns(w, scales)
    added.push(weights, scale)
    replaced.add(w.name)
    return { op: 'DynamicQuantizeMatMul', domain: 'com.microsoft', inputs: [n.inputs[0], weights.name, scale.name], outputs: n.outputs }
  })
  return { ...graph, nodes, initializers: [...graph.initializers.filter((t) => !replaced.has(t.name)), ...added] }
}

/** A [rows, columns] float matrix as int8 in [-127, 127] with its scales: w ≈ q * scale. */
export function quantizeColumns(w: OnnxTensor, scales: Int8Scales): { weights: OnnxTensor; scale: OnnxTensor } {
  const [rows, columns] = w.dims
  const values = new Float32Array(w.data.buffer.slice(w.data.byteOffset, w.data.byteOffset + w.data.length))
  const largest = new Float32Array(columns)
  for (let i = 0; i < values.length; i++) largest[i % columns] = Math.max(largest[i % columns], Math.abs(values[i]))
  const perColumn = scales === 'column'
  const step = perColumn
    ? largest.map((m) => (m > 0 ? m / 127 : 1))
    : new Float32Array([largest.reduce((a, b) => Math.max(a, b), 0) / 127 || 1])
  const q = new Int8Array(rows * columns)
  // Plain loops: ~4.7 M weights, and a callback each cost ~0.2 s of the model's load.
  for (let i = 0; i < values.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round(values[i] / step[perColumn ? i % columns : 0])))
  return {
    weights: { name: `${w.name}#int8`, type: OnnxType.Int8, dims: [rows, columns], data: new Uint8Array(q.buffer) },
    scale: { name: `${w.name}#scale`, type: OnnxType.Float, dims: perColumn ? [columns] : [], data: new Uint8Array(step.buffer) },
  }
}
