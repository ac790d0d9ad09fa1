import type { Readable } from 'node:stream'

export type ExportInput = Readable | AsyncIterable<Uint8Array> | Uint8Array

export const HEAD_BYTES = 64 * 1024

/** The start of a file (for sniffing) plus a way to read all of it, once, from the beginning. */
export interface ByteSource {
  head: Uint8Array
  /** The whole file fits in `head`. */
  complete: boolean
  chunks(): AsyncIterable<Uint8Array>
  readAll(): Promise<Uint8Array>
}

const toBytes = (c: unknown): Uint8Array => {
  if (c instanceof Uint8Array) return c
  if (typeof c === 'string') return new TextEncoder().encode(c)
  throw new TypeError('import input must yield bytes')
}

export async function openSource(input: ExportInput, headBytes = HEAD_BYTES): Promise<ByteSource> {
  if (input instanceof Uint8Array) {
    return {
      head: input.subarray(0, headBytes),
      complete: input.length <= headBytes,
      chunks: async function* () { yield input },
      readAll: async () => input,
    }
  }
  const it = (input as AsyncIterable<unknown>)[Symbol.asyncIterator]()
  const first: Uint8Array[] = []
  let size = 0
  let ended = false
  while (size < headBytes) {
    const r = await it.next()
    if (r.done) { ended = true; break }
    const b = toBytes(r.value)
    first.push(b)
    size += b.length
  }
  const head = concat(first).subarray(0, headBytes)
  let used = false
  async function* chunks() {
    if (used) throw new Error('an import source can be read once')
    used = true
    yield* first
    first.length = 0
    if (ended) return
    for (;;) {
      const r = await it.next()
      if (r.done) return
      yield toBytes(r.value)
    }
  }
  return {
    head,
    complete: ended && size <= headBytes,
    chunks,
    readAll: async () => {
      const all: Uint8Array[] = []
      for await (const c of chunks()) all.push(c)
      return concat(all)
    },
  }
}

export function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) { out.set(p, at); at += p.length }
  return out
}

/** UTF-8 text in chunks, without a leading byte-order mark. */
export async function* decodeText(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const dec = new TextDecoder('utf-8')
  let first = true
  for await (const c of chunks) {
    let s = dec.decode(c, { stream: true })
    if (first && s.length > 0) { if (s.charCodeAt(0) === 0xfeff) s = s.slice(1); first = false }
    if (s) yield s
  }
  const tail = dec.decode()
  if (tail) yield tail
}

export const decodeAll = (bytes: Uint8Array): string => {
  const s = new TextDecoder('utf-8').decode(bytes)
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s
}
