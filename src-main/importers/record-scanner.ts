import { AppError } from '../../src-shared/errors.ts'

/** Where a value stands in a JSON document: the keys and array indexes down to it. */
export type JsonPath = ReadonlyArray<string | number>

interface Frame { array: boolean; key: string | null; index: number; expectKey: boolean }

export interface ScanSink {
  envelope(text: string): void
  record(text: string, path: JsonPath, startOffset: number): void
  /** A record longer than the scanner's limit, skipped without being kept (`chars` long). */
  oversized(path: JsonPath, startOffset: number, chars: number): void
}

/**
 * The longest record kept for parsing, in characters: a post with everything X attaches is a few
 * tens of KB, so this is far above any real one, and a record that is not held whole costs nothing.
 */
export const MAX_RECORD_CHARS = 4 << 20

const Q = 34, BS = 92, LB = 123, RB = 125, LSQ = 91, RSQ = 93, COMMA = 44, COLON = 58

/**
 * Cuts a JSON text stream into the envelope (handed on as text, each record replaced by `null`)
 * and the records (handed on as their exact source text). Only brackets, strings and keys are
 * looked at; validation is left to whoever parses the two outputs (streamJson in json-stream.ts).
 * Resumable across chunks.
 */
export class RecordScanner {
  private buf = ''
  private base = 0 // file offset of buf[0]
  private frames: Frame[] = []
  private inRecord = false
  private depth = 0
  private inString = false
  private recordPath: JsonPath = []
  private inScalar = false
  /** Inside a record past MAX_RECORD_CHARS: scanned to its end without keeping its text. */
  private skipping: { start: number } | null = null
  private readonly isRecord: (p: JsonPath) => boolean
  private readonly sink: ScanSink

  constructor(isRecord: (p: JsonPath) => boolean, sink: ScanSink) {
    this.isRecord = isRecord
    this.sink = sink
  }

  get open(): boolean { return this.inRecord || this.frames.length > 0 || this.inString }
  get offset(): number { return this.base + this.buf.length }

  push(text: string): void {
    this.buf += text
    let i = 0
    let envStart = 0
    const s = this.buf
    const n = s.length
    if (this.skipping) {
      const end = this.scanRecord(s, 0)
      if (end < 0) {
        this.buf = ''
        this.base += n
        return
      }
      this.sink.oversized(this.recordPath, this.skipping.start, this.base + end - this.skipping.start)
      this.skipping = null
      this.inRecord = false
      i = end
      envStart = end
    }
    while (i < n) {
      if (this.inRecord) {
        const end = this.scanRecord(s, i)
        if (end < 0 && n - envStart > MAX_RECORD_CHARS) {
          // scanRecord has scanned to the end of `s` and kept its state: carry on without the text
          this.skipping = { start: this.base + envStart }
          this.buf = ''
          this.base += n
          return
        }
        if (end < 0) {
          // rescan this (small) record from its start once more text has come
          this.depth = 0
          this.inString = false
          i = n
          break
        }
        this.sink.record(s.slice(envStart, end), this.recordPath, this.base + envStart)
        this.inRecord = false
        i = end
        envStart = end
        continue
      }
      const c = s.charCodeAt(i)
      if (this.inScalar && !isScalarChar(c)) this.inScalar = false
      if (c === Q) {
        const close = stringEnd(s, i + 1)
        if (close < 0) break // wait for the rest of the string
        const top = this.frames[this.frames.length - 1]
        if (top && !top.array && top.expectKey) top.key = JSON.parse(s.slice(i, close + 1)) as string
        else if (top?.array) top.index++
        i = close + 1
        continue
      }
      if (c === LB || c === LSQ) {
        const top = this.frames[this.frames.length - 1]
        if (top?.array) top.index++
        if (top) {
          const path = this.frames.map((f) => (f.array ? f.index : (f.key ?? '')))
          if (this.isRecord(path)) {
            this.sink.envelope(s.slice(envStart, i) + 'null')
            envStart = i
            this.inRecord = true
            this.depth = 0
            this.inString = false
            this.recordPath = path
            continue // scanRecord consumes the opening bracket
          }
        }
        this.frames.push({ array: c === LSQ, key: null, index: -1, expectKey: c === LB })
      } else if (c === RB || c === RSQ) {
        this.frames.pop()
      } else if (c === COMMA) {
        const top = this.frames[this.frames.length - 1]
        if (top && !top.array) top.expectKey = true
      } else if (c === COLON) {
        const top = this.frames[this.frames.length - 1]
        if (top && !top.array) top.expectKey = false
      } else if (c > 32) {
        // a bare scalar (number, true, false, null) in an array counts as an element
        const top = this.frames[this.frames.length - 1]
        if (top?.array && !this.inScalar) top.index++
        this.inScalar = true
      }
      i++
    }
    if (this.inRecord) {
      // keep the record's text so far; the envelope before it is already out
      this.buf = s.slice(envStart)
      this.base += envStart
    } else {
      this.sink.envelope(s.slice(envStart, i))
      this.buf = s.slice(i)
      this.base += i
      if (this.buf.length > MAX_RECORD_CHARS) {
        throw new AppError('VALIDATION_ERROR', `The file holds a single value of over ${MAX_RECORD_CHARS >> 20} million characters ` +
          `(from character ${this.base}); no export has one. Is this the right file?`, { offset: this.base })
      }
    }
  }

  /** Continues a record from `from`; returns the index after its closing bracket, or -1. */
  private scanRecord(s: string, from: number): number {
    // Locals in the hot loop (every character of every record passes here); on -1 push() rescans the
    // record from its start once more text has come, so the state need not survive a return.
    let i = from
    let depth = this.depth
    const n = s.length
    if (this.inString) {
      const close = stringEnd(s, i)
      if (close < 0) return -1
      this.inString = false
      i = close + 1
    }
    while (i < n) {
      const c = s.charCodeAt(i)
      if (c === Q) {
        const close = stringEnd(s, i + 1)
        if (close < 0) {
          this.inString = true
          this.depth = depth
          return -1
        }
        i = close + 1
        continue
      }
      if (c === LB || c === LSQ) depth++
      else if ((c === RB || c === RSQ) && --depth === 0) {
        this.depth = 0
        return i + 1
      }
      i++
    }
    this.depth = depth
    return -1
  }
}

const isScalarChar = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c === 45 || c === 43 || c === 46 || c === 69

/** Index of the quote closing a string whose body starts at `from`, or -1 if not in `s` yet. */
function stringEnd(s: string, from: number): number {
  let i = from
  for (;;) {
    const q = s.indexOf('"', i)
    if (q < 0) return -1
    let k = q - 1
    while (k >= from && s.charCodeAt(k) === BS) k--
    if ((q - 1 - k) % 2 === 0) return q
    i = q + 1
  }
}
