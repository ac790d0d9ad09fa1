import { Inflate } from 'fflate'
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '../../src-shared/errors.ts'

/**
 * Limits on what a zip may make Sheaf inflate, checked while inflating (never after): a 3 MB zip can
 * hold gigabytes. An X archive's data files are JSON that deflates 5-15 times; its media (which
 * Sheaf never inflates) are most of its entries.
 */
export interface ZipLimits {
  /** Entries in the central directory. */
  maxEntries: number
  /** Inflated bytes of one entry. */
  maxEntryBytes: number
  /** Inflated bytes of every entry read, together. */
  maxTotalBytes: number
  /** Inflated / compressed bytes of an entry, once it is past RATIO_FLOOR bytes. */
  maxRatio: number
}

export const ZIP_LIMITS: ZipLimits = {
  maxEntries: 100_000,
  maxEntryBytes: 512 << 20,
  maxTotalBytes: 1 << 30,
  maxRatio: 100,
}

/** Below this many inflated bytes the ratio is not judged (tiny files compress oddly). */
const RATIO_FLOOR = 1 << 20
/** Compressed bytes handed to the inflater at a time: at most ~1,032 times as much comes out. */
const STEP = 16 << 10
/** Zips up to this size are kept in memory; larger ones are written to a temporary file. */
export const ZIP_MEMORY_BYTES = 32 << 20

export interface ZipEntry {
  name: string
  method: number
  flags: number
  compressedSize: number
  size: number
  localOffset: number
}

/** Bytes that can be read at any position: the zip in memory, or in a temporary file. */
interface Bytes {
  size: number
  read(pos: number, len: number): Uint8Array
  close(): void
}

const bad = (why: string) =>
  new AppError('VALIDATION_ERROR', `The zip file cannot be read (${why}); export the archive again from X.`)

const refuse = (entry: string, why: string) =>
  new AppError('VALIDATION_ERROR', `The zip was refused: ${entry} ${why}. This is not what an X archive looks like; export it again from X.`, { entry })

/**
 * Collects a zip's bytes where they can be read at any position: in memory up to `memoryBytes`,
 * beyond that in a temporary file under `tempDir` (removed by close()).
 */
export async function collectZip(chunks: AsyncIterable<Uint8Array>, opts: { tempDir?: string; memoryBytes?: number } = {}): Promise<Bytes> {
  const memoryBytes = opts.memoryBytes ?? ZIP_MEMORY_BYTES
  const held: Uint8Array[] = []
  let size = 0
  let file: { dir: string; fd: number } | null = null
  const release = () => {
    if (!file) return
    try { closeSync(file.fd) } catch { /* already closed */ }
    rmSync(file.dir, { recursive: true, force: true })
    file = null
  }
  try {
    for await (const c of chunks) {
      if (!file && size + c.length > memoryBytes) {
        const dir = mkdtempSync(join(opts.tempDir ?? tmpdir(), 'upload-zip-'))
        file = { dir, fd: openSync(join(dir, 'archive.zip'), 'w+', 0o600) }
        for (const h of held) writeSync(file.fd, h)
        held.length = 0
      }
      if (file) writeSync(file.fd, c)
      else held.push(c)
      size += c.length
    }
  } catch (e) {
    release()
    throw e
  }
  if (!file) {
    const all = new Uint8Array(size)
    let at = 0
    for (const h of held) { all.set(h, at); at += h.length }
    return { size, read: (pos, len) => all.subarray(pos, Math.min(size, pos + len)), close: () => {} }
  }
  const { fd } = file
  return {
    size,
    read(pos, len) {
      const out = new Uint8Array(Math.max(0, Math.min(len, size - pos)))
      let got = 0
      while (got < out.length) {
        const n = readSync(fd, out, got, out.length - got, pos + got)
        if (n === 0) break
        got += n
      }
      return out.subarray(0, got)
    },
    close: release,
  }
}

const u16 = (b: Uint8Array, at: number) => b[at] | (b[at + 1] << 8)
const u32 = (b: Uint8Array, at: number) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0
const u64 = (b: Uint8Array, at: number) => u32(b, at) + u32(b, at + 4) * 2 ** 32

/** The central directory, checked against the limits before anything is inflated. */
export function readEntries(zip: Bytes, limits: ZipLimits = ZIP_LIMITS): ZipEntry[] {
  const tailStart = Math.max(0, zip.size - (65_535 + 22))
  const tail = zip.read(tailStart, zip.size - tailStart)
  let eocd = -1
  for (let i = tail.length - 22; i >= 0; i--) {
    if (u32(tail, i) === 0x06054b50) { eocd = i; break }
  }
  if (eocd < 0) throw bad('no end-of-archive record; the file may be cut short')
  let count = u16(tail, eocd + 10)
  let cdSize = u32(tail, eocd + 12)
  let cdOffset = u32(tail, eocd + 16)
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const locAt = tailStart + eocd - 20
    const loc = locAt >= 0 ? zip.read(locAt, 20) : new Uint8Array(0)
    if (loc.length < 20 || u32(loc, 0) !== 0x07064b50) throw bad('a ZIP64 archive without its locator')
    const z64 = zip.read(u64(loc, 8), 56)
    if (z64.length < 56 || u32(z64, 0) !== 0x06064b50) throw bad('a damaged ZIP64 end record')
    count = u64(z64, 32)
    cdSize = u64(z64, 40)
    cdOffset = u64(z64, 48)
  }
  if (count > limits.maxEntries) throw refuse('the archive', `has ${count.toLocaleString('en')} entries (at most ${limits.maxEntries.toLocaleString('en')} are accepted)`)
  if (cdSize > count * (46 + 65_535 * 3) || cdOffset + cdSize > zip.size) throw bad('a damaged central directory')
  const cd = zip.read(cdOffset, cdSize)
  const entries: ZipEntry[] = []
  let at = 0
  for (let i = 0; i < count; i++) {
    if (at + 46 > cd.length || u32(cd, at) !== 0x02014b50) throw bad('a damaged central directory')
    const nameLen = u16(cd, at + 28)
    const extraLen = u16(cd, at + 30)
    const commentLen = u16(cd, at + 32)
    const name = new TextDecoder().decode(cd.subarray(at + 46, at + 46 + nameLen))
    let compressedSize = u32(cd, at + 20)
    let size = u32(cd, at + 24)
    let localOffset = u32(cd, at + 42)
    if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) {
      const extra = cd.subarray(at + 46 + nameLen, at + 46 + nameLen + extraLen)
      for (let e = 0; e + 4 <= extra.length;) {
        const id = u16(extra, e)
        const len = u16(extra, e + 2)
        if (id === 0x0001) {
          let f = e + 4
          if (size === 0xffffffff) { size = u64(extra, f); f += 8 }
          if (compressedSize === 0xffffffff) { compressedSize = u64(extra, f); f += 8 }
          if (localOffset === 0xffffffff) localOffset = u64(extra, f)
        }
        e += 4 + len
      }
    }
    entries.push({ name, method: u16(cd, at + 10), flags: u16(cd, at + 8), compressedSize, size, localOffset })
    at += 46 + nameLen + extraLen + commentLen
  }
  return entries
}

/** Counts inflated bytes across the entries of one zip, for the total limit. */
export class InflateBudget {
  total = 0
  readonly limits: ZipLimits
  constructor(limits: ZipLimits = ZIP_LIMITS) {
    this.limits = limits
  }
}

/**
 * An entry's inflated bytes, a piece at a time. The limits (entry size, total, ratio) are checked
 * after every STEP of compressed input, so no more than ~16 MB past a limit is ever inflated.
 */
export function* inflateEntry(zip: Bytes, entry: ZipEntry, budget: InflateBudget): Generator<Uint8Array> {
  const { limits } = budget
  if (entry.flags & 1) throw refuse(entry.name, 'is encrypted')
  if (entry.method !== 0 && entry.method !== 8) throw refuse(entry.name, `uses compression method ${entry.method}, which Sheaf does not read`)
  if (entry.size > limits.maxEntryBytes) throw refuse(entry.name, `says it is ${mb(entry.size)} uncompressed (at most ${mb(limits.maxEntryBytes)} per file)`)
  const local = zip.read(entry.localOffset, 30)
  if (local.length < 30 || u32(local, 0) !== 0x04034b50) throw bad(`a damaged entry header for ${entry.name}`)
  const start = entry.localOffset + 30 + u16(local, 26) + u16(local, 28)
  const end = start + entry.compressedSize
  if (end > zip.size) throw bad(`${entry.name} runs past the end of the file`)

  let out = 0
  let read = 0
  const account = (n: number) => {
    out += n
    budget.total += n
    if (out > limits.maxEntryBytes) throw refuse(entry.name, `inflates to more than ${mb(limits.maxEntryBytes)} (the most accepted per file)`)
    if (budget.total > limits.maxTotalBytes) throw refuse(entry.name, `takes the archive past ${mb(limits.maxTotalBytes)} uncompressed (the most accepted in all)`)
    if (out > RATIO_FLOOR && out > read * limits.maxRatio) {
      throw refuse(entry.name, `inflates more than ${limits.maxRatio} times its compressed size (a zip bomb?)`)
    }
  }
  if (entry.method === 0) {
    for (let pos = start; pos < end; pos += STEP) {
      const piece = zip.read(pos, Math.min(STEP, end - pos))
      read += piece.length
      account(piece.length)
      yield piece
    }
    return
  }
  let pending: Uint8Array[] = []
  let ended = false
  const inflater = new Inflate((data, final) => {
    pending.push(data)
    if (final) ended = true
  })
  for (let pos = start; pos < end && !ended; pos += STEP) {
    const piece = zip.read(pos, Math.min(STEP, end - pos))
    read += piece.length
    try {
      inflater.push(piece, pos + piece.length >= end)
    } catch (e) {
      throw bad(`${entry.name} is damaged: ${(e as Error).message}`)
    }
    const got = pending
    pending = []
    for (const g of got) account(g.length)
    for (const g of got) if (g.length > 0) yield g
  }
}

const mb = (n: number) => `${Math.round(n / 1048576).toLocaleString('en')} MB`

/** An entry's text, decoded strictly: bytes that are not UTF-8 fail naming the entry. */
export function* entryText(pieces: Iterable<Uint8Array>, entryName: string): Generator<string> {
  const dec = new TextDecoder('utf-8', { fatal: true })
  let first = true
  try {
    for (const p of pieces) {
      let s = dec.decode(p, { stream: true })
      if (first && s.length > 0) { if (s.charCodeAt(0) === 0xfeff) s = s.slice(1); first = false }
      if (s) yield s
    }
    const tail = dec.decode()
    if (tail) yield tail
  } catch (e) {
    if (e instanceof TypeError) throw new AppError('VALIDATION_ERROR', `${entryName} in the zip is not UTF-8 text; export the archive again from X.`, { entry: entryName })
    throw e
  }
}
