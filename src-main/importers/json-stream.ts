import Assembler from 'stream-json/core/assembler.js'
import { jsonParser } from 'stream-json/core/parser.js'
import type { Token } from 'stream-json/core/parser.js'
import { AppError } from '../../src-shared/errors.ts'

export type JsonPath = ReadonlyArray<string | number>
export type JsonEvent = { kind: 'record'; path: JsonPath; value: unknown } | { kind: 'rest'; value: unknown }

/** Text is fed to the tokenizer in pieces this small so a syntax error can be placed in the file. */
const PIECE = 4096

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

interface Frame { array: boolean; key: string | null; index: number }

/** An Assembler that keeps long integers (ids) as strings instead of rounding them. */
function makeAssembler(): Assembler {
  const asm = new Assembler()
  const save = (asm as unknown as { _saveValue(v: unknown): void })._saveValue.bind(asm)
  asm.numberValue = (v: string) => save(v.length > SAFE_DIGITS && /^\d+$/.test(v) ? v : Number(v))
  return asm
}

/**
 * Streams one JSON document: every object or array whose path satisfies `isRecord` is assembled
 * and yielded on its own (and never kept); everything else is assembled into a final `rest`
 * event, with record arrays left empty. Memory stays at one record plus the envelope.
 */
export async function* streamJson(text: AsyncIterable<string>, isRecord: (path: JsonPath) => boolean): AsyncGenerator<JsonEvent> {
  const parse = jsonParser({ streamValues: false })
  const pos = new Position()
  const frames: Frame[] = []
  const rest = makeAssembler()
  let record: Assembler | null = null
  let recordPath: JsonPath = []
  let sawValue = false
  const out: JsonEvent[] = []

  const pathHere = (): (string | number)[] => frames.map((f) => (f.array ? f.index : (f.key ?? '')))

  const onToken = (t: Token) => {
    if (record) {
      record.consume(t)
      if (record.done) { out.push({ kind: 'record', path: recordPath, value: record.current }); record = null }
      return
    }
    const top = frames[frames.length - 1]
    if (t.name === 'keyValue') { top.key = t.value; rest.consume(t); return }
    if (t.name === 'endObject' || t.name === 'endArray') { frames.pop(); rest.consume(t); return }
    // a value starts
    sawValue = true
    if (top?.array) top.index++
    if (t.name === 'startObject' || t.name === 'startArray') {
      const path = pathHere()
      if (frames.length > 0 && isRecord(path)) {
        record = makeAssembler()
        recordPath = path
        record.consume(t)
        return
      }
      frames.push({ array: t.name === 'startArray', key: null, index: -1 })
    }
    rest.consume(t)
  }

  for await (const chunk of text) {
    for (let at = 0; at < chunk.length; at += PIECE) {
      const piece = at === 0 && chunk.length <= PIECE ? chunk : chunk.slice(at, at + PIECE)
      let tokens: unknown
      try {
        tokens = parse(piece)
      } catch (e) {
        throw new AppError('VALIDATION_ERROR',
          `The file is not valid JSON: ${(e as Error).message} near ${pos.where}.`, { line: pos.line, column: pos.column, offset: pos.offset })
      }
      pos.advance(piece)
      const values = (tokens as { values?: Token[] } | null)?.values
      if (values) for (let i = 0; i < values.length; i++) onToken(values[i])
      if (out.length) { yield* out; out.length = 0 }
    }
  }
  if (!sawValue) throw new AppError('VALIDATION_ERROR', 'The file is empty: it holds no JSON value.')
  if (record || frames.length > 0) {
    throw new AppError('VALIDATION_ERROR',
      `The file ends before its JSON is complete (truncated?) at ${pos.where}.`, { line: pos.line, column: pos.column, offset: pos.offset, truncated: true })
  }
  yield { kind: 'rest', value: rest.current }
}

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
