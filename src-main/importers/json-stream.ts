import Assembler from 'stream-json/core/assembler.js'
import { jsonParser } from 'stream-json/core/parser.js'
import type { Token } from 'stream-json/core/parser.js'
import { AppError } from '../../src-shared/errors.ts'
import { RecordScanner, type JsonPath } from './record-scanner.ts'

export type { JsonPath } from './record-scanner.ts'
export type JsonEvent =
  | { kind: 'record'; path: JsonPath; value: unknown; raw: string }
  | { kind: 'oversized'; path: JsonPath; offset: number; chars: number }
  | { kind: 'rest'; value: unknown }

/** Integers longer than this may not survive a JS number: keep their digits as a string. */
const SAFE_DIGITS = 15

class Position {
  line = 1
  column = 1
  offset = 0
  advance(s: string) {
    let nl = s.indexOf('\n')
    if (nl < 0) { this.column += s.length } else {
      let last = nl
      while (nl >= 0) { this.line++; last = nl; nl = s.indexOf('\n', nl + 1) }
      this.column = s.length - last
    }
    this.offset += s.length
  }
  get where() { return `line ${this.line}, column ${this.column} (character ${this.offset})` }
}

/** A long integer (an id) arrives as a string token, so the assembler keeps its digits instead of rounding them. */
const keepLongInteger = (t: Token): Token =>
  t.name === 'numberValue' && t.value.length > SAFE_DIGITS && /^\d+$/.test(t.value) ? { name: 'stringValue', value: t.value } : t

/**
 * The importers' one streaming JSON reader. Every object or array whose path satisfies `isRecord`
 * is yielded on its own with its exact source text (and never kept); everything else is assembled
 * into a final `rest` event, with records left as nulls. `RecordScanner` (record-scanner.ts, used
 * only here) cuts the records out, and the native JSON.parse parses each one, so a bad record is
 * that record's error and a record over its limit is skipped unread; the envelope around them goes
 * through stream-json's public tokenizer and `Assembler`, which validate it as it streams and build
 * `rest`. Memory stays at one record plus the envelope.
 *
 * `longIntegers: false` skips looking for bare integers too long for a JS number, for formats that
 * write every id as a string (X GraphQL): the check costs a regex pass over every record.
 */
export async function* streamJson(text: AsyncIterable<string>, isRecord: (path: JsonPath) => boolean, opts: { longIntegers?: boolean } = {}): AsyncGenerator<JsonEvent> {
  const longIntegers = opts.longIntegers ?? true
  const parse = jsonParser({ streamValues: false })
  const rest = new Assembler()
  const pos = new Position()
  let chunk = ''
  let chunkStart = 0
  let sawValue = false
  const out: JsonEvent[] = []

  const invalid = (message: string, at: { line: number; column: number | null; offset: number }) =>
    new AppError('VALIDATION_ERROR',
      `The file is not valid JSON: ${message} at line ${at.line}${at.column ? `, column ${at.column}` : ''} (character ${at.offset}).`,
      { line: at.line, column: at.column, offset: at.offset })

  const scanner = new RecordScanner(isRecord, {
    envelope(piece) {
      if (!piece) return
      let tokens: unknown
      try {
        tokens = parse(piece)
      } catch (e) {
        throw invalid(`${(e as Error).message} (near here)`, { line: pos.line, column: pos.column, offset: pos.offset })
      }
      const values = (tokens as { values?: Token[] } | null)?.values
      if (values) for (let i = 0; i < values.length; i++) { sawValue = true; rest.consume(keepLongInteger(values[i])) }
    },
    record(raw, path, startOffset) {
      sawValue = true
      let value: unknown
      try {
        value = longIntegers && LONG_NUMBER.test(raw) ? JSON.parse(raw, keepLongIntegers) : JSON.parse(raw)
      } catch (e) {
        const msg = (e as Error).message
        const rel = Number(/position (\d+)/.exec(msg)?.[1] ?? raw.length)
        throw invalid(msg.replace(/ in JSON at position.*$/, '').replace(/, ".*$/, ''), locate(startOffset + rel, raw, startOffset))
      }
      out.push({ kind: 'record', path, value, raw })
    },
    oversized(path, offset, chars) {
      sawValue = true
      out.push({ kind: 'oversized', path, offset, chars })
    },
  })

  /** Line and column of an absolute offset, from the position at the current chunk's start. */
  const locate = (at: number, raw: string, rawStart: number) => {
    if (at >= chunkStart) {
      const p = Object.assign(new Position(), { line: pos.line, column: pos.column, offset: pos.offset })
      p.advance(chunk.slice(0, at - chunkStart))
      return { line: p.line, column: p.column, offset: at }
    }
    const between = raw.slice(at - rawStart, chunkStart - rawStart)
    const before = raw.slice(0, at - rawStart)
    const nl = before.lastIndexOf('\n')
    return { line: pos.line - (between.split('\n').length - 1), column: nl >= 0 ? before.length - nl : null, offset: at }
  }

  for await (const c of text) {
    chunk = c
    chunkStart = pos.offset
    scanner.push(c)
    pos.advance(c)
    if (out.length) {
      for (const ev of out) yield ev // not yield*: delegating to an array costs an async-from-sync iterator per event
      out.length = 0
    }
  }
  if (!sawValue && !scanner.open) throw new AppError('VALIDATION_ERROR', 'The file is empty: it holds no JSON value.')
  if (scanner.open) {
    throw new AppError('VALIDATION_ERROR',
      `The file ends before its JSON is complete (truncated?) at ${pos.where}.`, { line: pos.line, column: pos.column, offset: pos.offset, truncated: true })
  }
  yield { kind: 'rest', value: rest.current }
}

/** A long run of digits outside a string: a number that may not fit a JS number. */
const LONG_NUMBER = /[:,[]\s*-?\d{16,}/

/** Skip a JavaScript assignment prefix (`window.YTD.tweets.part0 = `) in front of the JSON. */
export async function* afterAssignment(text: AsyncIterable<string>): AsyncGenerator<string> {
  let found = false
  let skipped = 0
  for await (const chunk of text) {
    if (found) { yield chunk; continue }
    const eq = chunk.indexOf('=')
    if (eq < 0) {
      skipped += chunk.length
      if (skipped > 4096) throw new AppError('VALIDATION_ERROR', 'The archive file has no `window.YTD… = ` assignment.')
      continue
    }
    found = true
    const tail = chunk.slice(eq + 1)
    if (tail) yield tail
  }
}

/** Whole-text JSON.parse with the failure placed by line and column. */
export function parseJsonText(text: string, what = 'The file'): unknown {
  try {
    return JSON.parse(text, keepLongIntegers)
  } catch (e) {
    const msg = (e as Error).message
    const m = /position (\d+)/.exec(msg)
    const at = m ? Number(m[1]) : text.length
    const before = text.slice(0, at)
    const line = before.split('\n').length
    const column = at - before.lastIndexOf('\n')
    const truncated = !m || /end of JSON/i.test(msg)
    throw new AppError('VALIDATION_ERROR',
      `${what} is not valid JSON${truncated ? ' (it ends too early: truncated?)' : ''}: ${msg.replace(/ in JSON at position.*$/, '')} at line ${line}, column ${column} (character ${at}).`,
      { line, column, offset: at, truncated })
  }
}

/** JSON.parse reviver: an integer too long for a JS number is kept as its exact digits. */
function keepLongIntegers(this: unknown, _key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value === 'number' && context?.source && context.source.length > SAFE_DIGITS && /^\d+$/.test(context.source)) {
    return context.source
  }
  return value
}
