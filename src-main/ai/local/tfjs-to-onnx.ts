import { OnnxType, type OnnxGraph, type OnnxNode, type OnnxTensor } from './onnx-proto.ts'

/**
 * Translates a TensorFlow.js graph model (model.json + its weights) into an ONNX graph, one TF op at
 * a time, so ONNX Runtime can run the same weights. Only the ops the sentence encoder uses are known;
 * any other op is an error naming it. Integer tensors stay int32 as TF.js has them (it has no int64),
 * with casts where ONNX wants int64 (shapes, axes, scatter/gather indices).
 */

export interface TfjsModelJson {
  modelTopology: { node: TfNode[] }
  weightsManifest: { paths: string[]; weights: { name: string; dtype: string; shape: number[]; quantization?: unknown }[] }[]
}

interface TfNode {
  name: string
  op: string
  input?: string[]
  attr?: Record<string, TfAttr>
}

interface TfAttr {
  i?: string | number
  b?: boolean
  s?: string | number[]
  type?: string | number
  list?: { i?: (string | number)[] }
}

interface Constant {
  type: OnnxType
  dims: number[]
  data: Uint8Array
}

/** End of a slice that runs to the end of its axis. */
const TO_END = Number.MAX_SAFE_INTEGER

/** The ONNX graph of a TF.js graph model, given the bytes of its weight files in manifest order. */
export function tfjsToOnnx(model: TfjsModelJson, weightFiles: readonly Uint8Array[]): OnnxGraph {
  return new Translator(model, weightFiles).graph()
}

class Translator {
  private readonly nodes: OnnxNode[] = []
  private readonly initializers: OnnxTensor[] = []
  private readonly constants = new Map<string, Constant>()
  private readonly byName: Map<string, TfNode>
  private readonly model: TfjsModelJson

  constructor(model: TfjsModelJson, weightFiles: readonly Uint8Array[]) {
    this.model = model
    this.byName = new Map(model.modelTopology.node.map((n) => [n.name, n]))
    this.readWeights(weightFiles)
  }

  graph(): OnnxGraph {
    const tfNodes = this.model.modelTopology.node
    const consumed = new Set(tfNodes.flatMap((n) => (n.input ?? []).map((i) => ref(i).node)))
    const outputs = tfNodes.filter((n) => n.op !== 'Const' && !consumed.has(n.name))
    if (outputs.length !== 1) throw new Error(`expected one graph output, found ${outputs.map((n) => n.name).join(', ')}`)
    const inputs = tfNodes.filter((n) => n.op === 'Placeholder')
    for (const n of topologicalOrder(tfNodes, this.byName)) if (n.op !== 'Const' && n.op !== 'Placeholder') this.translate(n)
    const used = new Set(this.nodes.flatMap((n) => n.inputs))
    for (const [name, c] of this.constants) if (used.has(name)) this.initializers.push({ name, ...c })
    return {
      nodes: this.nodes,
      initializers: this.initializers,
      inputs: inputs.map((n) => ({ name: n.name, type: onnxType(n.attr?.dtype), dims: placeholderDims(n) })),
      outputs: [{ name: outputs[0].name, type: onnxType(outputs[0].attr?.T) }],
    }
  }

  private readWeights(files: readonly Uint8Array[]): void {
    const all = concat(files)
    let at = 0
    for (const w of this.model.weightsManifest.flatMap((g) => g.weights)) {
      if (w.quantization) throw new Error(`quantized weight ${w.name} is not supported`)
      const type = onnxType(w.dtype)
      const bytes = w.shape.reduce((a, b) => a * b, 1) * 4
      this.constants.set(w.name, { type, dims: w.shape, data: all.subarray(at, at + bytes) })
      at += bytes
    }
    if (at !== all.length) throw new Error(`weights hold ${all.length} bytes, the manifest ${at}`)
  }

  private translate(n: TfNode): string | void {
    const inputs = (n.input ?? []).filter((i) => !i.startsWith('^')).map(tensorName)
    const [x, y] = inputs
    const out = n.name
    const same = (op: string) => this.emit(op, inputs, [out])
    switch (n.op) {
      case 'Add': case 'Sub': case 'Mul': case 'Less': case 'Greater': case 'Sin': case 'Cos': case 'Tanh': case 'Relu':
        return same(n.op)
      case 'BiasAdd': return same('Add')
      case 'RealDiv': return same('Div')
      case 'Maximum': return same('Max')
      case 'LogicalNot': return same('Not')
      case 'Square': return this.emit('Mul', [x, x], [out])
      case 'Rsqrt': return this.emit('Reciprocal', [this.emit('Sqrt', [x], [`${out}#sqrt`])], [out])
      case 'Softmax': return this.emit('Softmax', [x], [out], { axis: -1 })
      case 'Cast': return this.emit('Cast', [x], [out], { to: onnxType(n.attr?.DstT) })
      case 'Shape': return this.emit('Cast', [this.emit('Shape', [x], [`${out}#int64`])], [out], { to: onnxType(n.attr?.out_type) })
      case 'Where': return this.where(x, out)
      case 'Reshape': return this.emit('Reshape', [x, this.int64(y, `${out}#shape`)], [out])
      case 'ExpandDims': return this.emit('Unsqueeze', [x, this.int64Const(`${out}#axes`, this.ints(y))], [out])
      case 'Squeeze': return this.emit('Squeeze', [x, this.int64Const(`${out}#axes`, listInts(n, 'squeeze_dims'))], [out])
      case 'Transpose': return this.emit('Transpose', [x], [out], { perm: this.ints(y) })
      case 'ConcatV2': return this.emit('Concat', inputs.slice(0, -1), [out], { axis: this.ints(inputs.at(-1)!)[0] })
      case 'Pack': return this.pack(n, inputs, out)
      case 'GatherV2': return this.emit('Gather', [x, y], [out], { axis: this.ints(inputs[2])[0] })
      case 'GatherNd': return this.emit('GatherND', [x, this.int64(y, `${out}#indices`)], [out])
      case 'ScatterNd': return this.scatterNd(n, inputs, out)
      case 'SparseToDense': return this.sparseToDense(inputs, out)
      case 'StridedSlice': return this.stridedSlice(n, inputs, out)
      case 'Slice': return this.slice(inputs, out)
      case 'SplitV': return this.splitV(n, inputs, out)
      case 'Range': return same('Range')
      case 'Max': case 'Sum': case 'Mean': case 'Prod': return this.reduce(n, inputs, out)
      case 'MatMul': case 'BatchMatMul': return this.matMul(n, inputs, out)
      case 'Conv2D': return this.conv1x1(n, inputs, out)
      default: throw new Error(`the TF op ${n.op} (${n.name}) has no ONNX translation`)
    }
  }

  private emit(op: string, inputs: readonly string[], outputs: readonly string[], attrs?: OnnxNode['attrs']): string {
    this.nodes.push({ op, inputs, outputs, attrs })
    return outputs[0]
  }

  /** TF Where(cond): the [n, rank] coordinates of true elements, which ONNX NonZero gives as [rank, n]. */
  private where(x: string, out: string): void {
    const nz = this.emit('NonZero', [x], [`${out}#nonzero`])
    const t = this.emit('Transpose', [nz], [`${out}#t`], { perm: [1, 0] })
    this.emit('Cast', [t], [out], { to: OnnxType.Int32 })
  }

  private pack(n: TfNode, inputs: string[], out: string): void {
    const axis = attrInt(n, 'axis')
    const axes = this.int64Const(`${out}#axes`, [axis])
    const parts = inputs.map((i, k) => this.emit('Unsqueeze', [i, axes], [`${out}#${k}`]))
    this.emit('Concat', parts, [out], { axis })
  }

  /** TF ScatterNd(indices, updates, shape): updates written into zeros of that shape. */
  private scatterNd(n: TfNode, [indices, updates, shape]: string[], out: string): void {
    const type = onnxType(n.attr?.T)
    const zero: OnnxTensor = { name: `${out}#zero`, type, dims: [1], data: new Uint8Array(4) }
    const zeros = this.emit('ConstantOfShape', [this.int64(shape, `${out}#shape`)], [`${out}#zeros`], { value: zero })
    this.emit('ScatterND', [zeros, this.int64(indices, `${out}#indices`), updates], [out])
  }

  private sparseToDense([indices, shape, values, fill]: string[], out: string): void {
    const dense = this.emit('Expand', [fill, this.int64(shape, `${out}#shape`)], [`${out}#dense`])
    this.emit('ScatterND', [dense, this.int64(indices, `${out}#indices`), values], [out])
  }

  private stridedSlice(n: TfNode, [x, b, e, s]: string[], out: string): void {
    if (attrInt(n, 'ellipsis_mask') || attrInt(n, 'new_axis_mask')) throw new Error(`StridedSlice ${n.name}: ellipsis and new axes are not supported`)
    const [begin, end, strides] = [this.ints(b), this.ints(e), this.ints(s)]
    const bit = (mask: string, i: number) => (attrInt(n, mask) >> i) & 1
    const starts: number[] = []
    const ends: number[] = []
    const shrink: number[] = []
    begin.forEach((b0, i) => {
      const forward = strides[i] > 0
      starts.push(bit('begin_mask', i) ? (forward ? 0 : -1) : b0)
      if (bit('shrink_axis_mask', i)) {
        shrink.push(i)
        ends.push(b0 === -1 ? TO_END : b0 + 1)
      } else ends.push(bit('end_mask', i) ? (forward ? TO_END : -TO_END) : end[i])
    })
    const axes = begin.map((_, i) => i)
    const sliced = this.emit('Slice', [x, this.int64Const(`${out}#starts`, starts), this.int64Const(`${out}#ends`, ends),
      this.int64Const(`${out}#axes`, axes), this.int64Const(`${out}#steps`, strides)], [shrink.length ? `${out}#sliced` : out])
    if (shrink.length) this.emit('Squeeze', [sliced, this.int64Const(`${out}#shrink`, shrink)], [out])
  }

  /** TF Slice(x, begin, size), a size of -1 meaning to the end. */
  private slice([x, b, s]: string[], out: string): void {
    const begin = this.ints(b)
    const ends = this.ints(s).map((size, i) => (size === -1 ? TO_END : begin[i] + size))
    this.emit('Slice', [x, this.int64Const(`${out}#starts`, begin), this.int64Const(`${out}#ends`, ends),
      this.int64Const(`${out}#axes`, begin.map((_, i) => i))], [out])
  }

  private splitV(n: TfNode, [x, sizes, axis]: string[], out: string): void {
    const count = attrInt(n, 'num_split')
    const outputs = Array.from({ length: count }, (_, k) => (k ? `${out}:${k}` : out))
    this.emit('Split', [x, this.int64Const(`${out}#split`, this.ints(sizes))], outputs, { axis: this.ints(axis)[0] })
  }

  private reduce(n: TfNode, [x, axes]: string[], out: string): void {
    this.emit(`Reduce${n.op}`, [x, this.int64Const(`${out}#axes`, this.ints(axes))], [out], { keepdims: n.attr?.keep_dims?.b ? 1 : 0 })
  }

  /** MatMul and BatchMatMul; a transposed operand of BatchMatMul is one of attention's [batch, heads, length, depth]. */
  private matMul(n: TfNode, [a, b]: string[], out: string): void {
    const flag = (name: string) => n.attr?.[name]?.b === true
    const t = (v: string, on: boolean, name: string) => (on ? this.emit('Transpose', [v], [`${out}#${name}`], { perm: n.op === 'MatMul' ? [1, 0] : [0, 1, 3, 2] }) : v)
    const left = t(a, flag('transpose_a') || flag('adj_x'), 'a')
    const right = t(b, flag('transpose_b') || flag('adj_y'), 'b')
    this.emit('MatMul', [left, right], [out])
  }

  /** A 1x1, stride-1 NHWC Conv2D is a matrix product over the channel axis with its [1,1,in,out] kernel as [in,out]. */
  private conv1x1(n: TfNode, [x, kernel]: string[], out: string): void {
    const k = this.constants.get(kernel)
    const strides = listInts(n, 'strides')
    if (!k || k.dims[0] !== 1 || k.dims[1] !== 1 || strides.some((s) => s !== 1) || text(n.attr?.data_format) === 'NCHW') {
      throw new Error(`Conv2D ${n.name}: only 1x1 stride-1 NHWC kernels are supported`)
    }
    const matrix = `${kernel}#matrix`
    this.constants.set(matrix, { ...k, dims: k.dims.slice(2) })
    this.emit('MatMul', [x, matrix], [out])
  }

  /** A tensor as int64: a constant is written so, anything else is cast. */
  private int64(name: string, as: string): string {
    return this.constants.has(name) ? this.int64Const(as, this.ints(name)) : this.emit('Cast', [name], [as], { to: OnnxType.Int64 })
  }

  private int64Const(name: string, values: readonly number[]): string {
    const data = new Uint8Array(BigInt64Array.from(values.map((v) => BigInt(v))).buffer)
    this.constants.set(name, { type: OnnxType.Int64, dims: [values.length], data })
    return name
  }

  /** The values of an int32 constant, which must be known when translating. */
  private ints(name: string): number[] {
    const c = this.constants.get(name)
    if (!c || c.type !== OnnxType.Int32) throw new Error(`${name} must be an int32 constant`)
    return Array.from(new Int32Array(c.data.buffer, c.data.byteOffset, c.data.length / 4))
  }
}

const ref = (input: string) => {
  const [node, index] = input.replace(/^\^/, '').split(':')
  return { node, index: Number(index ?? 0) }
}

const tensorName = (input: string) => {
  const { node, index } = ref(input)
  return index ? `${node}:${index}` : node
}

function topologicalOrder(nodes: readonly TfNode[], byName: Map<string, TfNode>): TfNode[] {
  const done = new Set<string>()
  const order: TfNode[] = []
  const visit = (n: TfNode) => {
    if (done.has(n.name)) return
    done.add(n.name)
    for (const i of n.input ?? []) visit(byName.get(ref(i).node)!)
    order.push(n)
  }
  nodes.forEach(visit)
  return order
}

/** TF dtypes by name or DataType number; every integer type is int32, as in TF.js. */
function onnxType(attr: TfAttr | string | undefined): OnnxType {
  const t = typeof attr === 'object' ? attr.type : attr
  switch (t) {
    case 'float32': case 'DT_FLOAT': case 1: case '1': return OnnxType.Float
    case 'int32': case 'DT_INT32': case 3: case '3': case 'DT_INT64': case 9: case '9': return OnnxType.Int32
    case 'bool': case 'DT_BOOL': case 10: case '10': return OnnxType.Bool
    default: throw new Error(`unsupported TF dtype ${String(t)}`)
  }
}

function placeholderDims(n: TfNode): (number | string)[] {
  const shape = (n.attr?.shape as { shape?: { dim?: { size: string }[] } } | undefined)?.shape
  return (shape?.dim ?? []).map((d, i) => (Number(d.size) < 0 ? `${n.name}_${i}` : Number(d.size)))
}

const attrInt = (n: TfNode, name: string) => Number(n.attr?.[name]?.i ?? 0)
const listInts = (n: TfNode, name: string) => (n.attr?.[name]?.list?.i ?? []).map(Number)
const text = (a: TfAttr | undefined) => (Array.isArray(a?.s) ? String.fromCharCode(...a.s) : a?.s ? Buffer.from(a.s, 'base64').toString() : '')

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
