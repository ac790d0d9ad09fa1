import { OnnxType, type OnnxGraph, type OnnxNode, type OnnxTensor } from './onnx-proto.ts'

/**
 * The sum over a [batch, length, dim] tensor's middle axis, rewritten so that each text's sum is
 * the same float whatever else is in the batch. ONNX Runtime adds the rows in order when the axes
 * before the summed one are all 1 (one text), but sums a middle axis of a batch through a matrix
 * product with a ones vector, which rounds differently: 407 of 637 questions got another last bit
 * in a batch than alone. Here the rows are gathered as [length, batch, dim] and summed over the
 * first axis, the in-order addition whatever the batch: a batch's vectors are then bit for bit
 * those of each text alone, and those of one text are unchanged (bench/encoder-onnx.ts batch-same).
 * A Transpose would not do: the graph optimizer folds it back into the middle-axis sum.
 */
export function sumMiddleAxisInOrder(graph: OnnxGraph, output: string): OnnxGraph {
  const at = graph.nodes.findIndex((n) => n.outputs[0] === output)
  const sum = graph.nodes[at]
  if (sum?.op !== 'ReduceSum' || sum.attrs?.keepdims !== 0 || !axisIsOne(graph, sum.inputs[1])) {
    throw new Error(`${output} is not a sum over axis 1 without kept dims`)
  }
  const x = sum.inputs[0]
  const name = (part: string) => `${output}#ordered-${part}`
  const constants: OnnxTensor[] = []
  const int64 = (part: string, value: number, dims: number[]): string => {
    const data = new Uint8Array(new BigInt64Array([BigInt(value)]).buffer)
    constants.push({ name: name(part), type: OnnxType.Int64, dims, data })
    return name(part)
  }
  const zero = int64('zero', 0, [])
  const one = int64('one', 1, [])
  const axis0 = int64('axis0', 0, [1])
  const axis1 = int64('axis1', 1, [1])
  const node = (op: string, inputs: string[], part: string, attrs?: OnnxNode['attrs']): OnnxNode => ({ op, inputs, outputs: [name(part)], attrs })
  const nodes: OnnxNode[] = [
    node('Shape', [x], 'shape'),
    node('Gather', [name('shape'), zero], 'batch', { axis: 0 }),
    node('Gather', [name('shape'), one], 'length', { axis: 0 }),
    node('Range', [zero, name('length'), one], 'positions'),
    node('Range', [zero, name('batch'), one], 'texts'),
    node('Mul', [name('texts'), name('length')], 'starts'),
    node('Unsqueeze', [name('positions'), axis1], 'column'),
    node('Unsqueeze', [name('starts'), axis0], 'row'),
    // rows[l][b] = b * length + l: the l-th token of text b in the flattened [batch * length, dim]
    node('Add', [name('column'), name('row')], 'rows'),
    node('Flatten', [x], 'flat', { axis: 2 }),
    node('Gather', [name('flat'), name('rows')], 'by-position', { axis: 0 }),
    { op: 'ReduceSum', inputs: [name('by-position'), axis0], outputs: [output], attrs: { keepdims: 0 } },
  ]
  return {
    ...graph,
    nodes: [...graph.nodes.slice(0, at), ...nodes, ...graph.nodes.slice(at + 1)],
    initializers: [...graph.initializers, ...constants],
  }
}

function axisIsOne(graph: OnnxGraph, axes: string | undefined): boolean {
  const t = graph.initializers.find((i) => i.name === axes)
  if (!t || t.type !== OnnxType.Int64 || t.data.length !== 8) return false
  return new DataView(t.data.buffer, t.data.byteOffset, 8).getBigInt64(0, true) === 1n
}
