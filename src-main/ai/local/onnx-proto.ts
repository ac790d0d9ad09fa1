/**
 * The few ONNX messages a translated model needs (ModelProto, GraphProto, NodeProto, TensorProto,
 * ValueInfoProto), written straight as protobuf wire format: fields numbered as in onnx.proto.
 * Repeated numbers are written unpacked, which every protobuf reader accepts.
 */

/** TensorProto.DataType codes. */
export const OnnxType = { Float: 1, Uint8: 2, Int8: 3, Int32: 6, Int64: 7, Bool: 9 } as const
export type OnnxType = (typeof OnnxType)[keyof typeof OnnxType]

export interface OnnxTensor {
  name: string
  type: OnnxType
  dims: readonly number[]
  /** Little-endian element bytes. */
  data: Uint8Array
}

export type OnnxAttribute = number | readonly number[] | OnnxTensor | { float: number }

export interface OnnxNode {
  op: string
  inputs: readonly string[]
  outputs: readonly string[]
  attrs?: Record<string, OnnxAttribute>
  /** The operator set of a node outside ONNX's own, e.g. ONNX Runtime's 'com.microsoft' contrib ops. */
  domain?: string
}

export interface OnnxValue {
  name: string
  type: OnnxType
  /** A number is a fixed size, a string a named dynamic one; none: the shape is left to inference. */
  dims?: readonly (number | string)[]
}

export interface OnnxGraph {
  nodes: readonly OnnxNode[]
  initializers: readonly OnnxTensor[]
  inputs: readonly OnnxValue[]
  outputs: readonly OnnxValue[]
}

const OPSET = 18
const IR_VERSION = 8

/** The serialized ModelProto of a graph, for `InferenceSession.create(bytes)`. */
export function encodeModel(graph: OnnxGraph): Uint8Array {
  const m = new Message()
    .int(1, IR_VERSION)
    .string(2, 'sheaf')
    .message(7, encodeGraph(graph))
    .message(8, new Message().string(1, '').int(2, OPSET))
  for (const domain of new Set(graph.nodes.flatMap((n) => (n.domain ? [n.domain] : [])))) m.message(8, new Message().string(1, domain).int(2, 1))
  return m.bytes()
}

function encodeGraph(g: OnnxGraph): Message {
  const m = new Message()
  for (const n of g.nodes) m.message(1, encodeNode(n))
  m.string(2, 'graph')
  for (const t of g.initializers) m.message(5, encodeTensor(t))
  for (const v of g.inputs) m.message(11, encodeValue(v))
  for (const v of g.outputs) m.message(12, encodeValue(v))
  return m
}

function encodeNode(n: OnnxNode): Message {
  const m = new Message()
  for (const i of n.inputs) m.string(1, i)
  for (const o of n.outputs) m.string(2, o)
  m.string(3, n.outputs[0]).string(4, n.op)
  if (n.domain) m.string(7, n.domain)
  for (const [name, value] of Object.entries(n.attrs ?? {})) m.message(5, encodeAttribute(name, value))
  return m
}

function encodeAttribute(name: string, value: OnnxAttribute): Message {
  const m = new Message().string(1, name)
  if (typeof value === 'number') return m.int(3, value).int(20, 2)
  if (Array.isArray(value)) {
    for (const v of value as readonly number[]) m.int(8, v)
    return m.int(20, 7)
  }
  if ('float' in value) return m.float(2, value.float).int(20, 1)
  return m.message(5, encodeTensor(value as OnnxTensor)).int(20, 4)
}

function encodeTensor(t: OnnxTensor): Message {
  const m = new Message()
  for (const d of t.dims) m.int(1, d)
  return m.int(2, t.type).string(8, t.name).raw(9, t.data)
}

function encodeValue(v: OnnxValue): Message {
  const tensor = new Message().int(1, v.type)
  if (v.dims) {
    const shape = new Message()
    for (const d of v.dims) shape.message(1, typeof d === 'number' ? new Message().int(1, d) : new Message().string(2, d))
    tensor.message(2, shape)
  }
  return new Message().string(1, v.name).message(2, new Message().message(1, tensor))
}

const utf8 = new TextEncoder()

/** A protobuf message under construction: its fields' bytes in order, copied together only by bytes(). */
class Message {
  private readonly parts: Uint8Array[] = []
  private size = 0

  int(field: number, value: number): this {
    return this.push(varint(field << 3)).push(varint(value))
  }

  float(field: number, value: number): this {
    const b = new Uint8Array(4)
    new DataView(b.buffer).setFloat32(0, value, true)
    return this.push(varint((field << 3) | 5)).push(b)
  }

  string(field: number, value: string): this {
    return this.raw(field, utf8.encode(value))
  }

  /** A nested message, by reference: its bytes are copied once, by the outermost bytes(). */
  message(field: number, value: Message): this {
    this.push(varint((field << 3) | 2)).push(varint(value.size))
    for (const p of value.parts) this.push(p)
    return this
  }

  raw(field: number, value: Uint8Array): this {
    return this.push(varint((field << 3) | 2)).push(varint(value.length)).push(value)
  }

  bytes(): Uint8Array {
    const out = new Uint8Array(this.size)
    let at = 0
    for (const p of this.parts) {
      out.set(p, at)
      at += p.length
    }
    return out
  }

  private push(b: Uint8Array): this {
    this.parts.push(b)
    this.size += b.length
    return this
  }
}

/** Base-128 varint; a negative int64 is its 64-bit two's complement (10 bytes). */
function varint(value: number): Uint8Array {
  let v = BigInt.asUintN(64, BigInt(value))
  const out: number[] = []
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80)
    v >>= 7n
  }
  out.push(Number(v))
  return Uint8Array.from(out)
}
