// Builds zip bombs in the test without ever holding their inflated size: the deflate stream is
// written by hand (fixed Huffman codes: the prefix as literals, then one byte repeated by
// length-258/distance-1 matches, 13 bits per 258 bytes), and the zip container around it too.

class BitWriter {
  private out: Uint8Array
  private at = 0
  private bit = 0
  constructor(capacity: number) { this.out = new Uint8Array(capacity) }
  /** Writes `n` bits of `value`, least significant first (deflate's bit order for header fields). */
  bits(value: number, n: number) {
    for (let i = 0; i < n; i++) this.put((value >> i) & 1)
  }
  /** Writes a Huffman code of `n` bits, most significant first (deflate's order for codes). */
  code(value: number, n: number) {
    for (let i = n - 1; i >= 0; i--) this.put((value >> i) & 1)
  }
  private put(b: number) {
    if (b) this.out[this.at] |= 1 << this.bit
    if (++this.bit === 8) { this.bit = 0; this.at++ }
  }
  bytes() { return this.out.subarray(0, this.at + (this.bit ? 1 : 0)) }
}

/** Fixed-Huffman literal code of a byte (0-143: 8 bits from 0x30; 144-255: 9 bits from 0x190). */
function literal(w: BitWriter, byte: number) {
  if (byte < 144) w.code(0x30 + byte, 8)
  else w.code(0x190 + byte - 144, 9)
}

/** Raw deflate of `prefix`, then `byte` repeated to make `size` bytes in all, then `suffix`. */
export function deflateRepeated(prefix: string, byte: number, size: number, suffix = ''): Uint8Array {
  const pre = Buffer.from(prefix)
  const post = Buffer.from(suffix)
  let fill = size - pre.length - post.length
  const pairs = Math.floor((fill - 1) / 258)
  const w = new BitWriter(Math.ceil((pairs * 13 + (pre.length + post.length + 300) * 9) / 8) + 64)
  w.bits(1, 1) // final block
  w.bits(1, 2) // fixed Huffman
  for (const b of pre) literal(w, b)
  literal(w, byte)
  fill--
  for (let i = 0; i < pairs; i++) {
    w.code(0b11000101, 8) // length 258 (code 285)
    w.code(0, 5) // distance 1
  }
  fill -= pairs * 258
  for (let i = 0; i < fill; i++) literal(w, byte)
  for (const b of post) literal(w, b)
  w.code(0, 7) // end of block (256)
  return w.bytes()
}

export interface RawEntry {
  name: string
  /** Raw deflate data (method 8), or the bytes themselves with `stored`. */
  data: Uint8Array
  /** The uncompressed size the zip declares (may lie). */
  size: number
  stored?: boolean
}

/** A zip container around already-compressed entries (CRCs are left 0: nothing checks them). */
export function zipOf(entries: RawEntry[]): Uint8Array {
  const parts: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const name = Buffer.from(e.name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(e.stored ? 0 : 8, 8)
    local.writeUInt32LE(e.data.length, 18)
    local.writeUInt32LE(Math.min(e.size, 0xfffffffe), 22)
    local.writeUInt16LE(name.length, 26)
    const cd = Buffer.alloc(46)
    cd.writeUInt32LE(0x02014b50, 0)
    cd.writeUInt16LE(20, 4)
    cd.writeUInt16LE(20, 6)
    cd.writeUInt16LE(e.stored ? 0 : 8, 10)
    cd.writeUInt32LE(e.data.length, 20)
    cd.writeUInt32LE(Math.min(e.size, 0xfffffffe), 24)
    cd.writeUInt16LE(name.length, 28)
    cd.writeUInt32LE(offset, 42)
    parts.push(local, name, Buffer.from(e.data))
    central.push(cd, name)
    offset += 30 + name.length + e.data.length
  }
  const cdBytes = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(cdBytes.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, cdBytes, end])
}

export const MiB = 1 << 20
