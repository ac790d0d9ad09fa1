import { parse } from 'csv-parse'
import { parseJsonText } from '../json-stream.ts'
import { decodeText } from '../input.ts'
import { type Json } from '../normalize/values.ts'
import { fail, type Numberer, type ImportItem } from '../types.ts'
import { tweOutcome } from './twitter-web-exporter.ts'

const JSON_CELLS = ['media', 'media_tags']

/** The exporter writes line breaks inside full_text as the two characters "\n". */
const unescapeText = (s: string) => s.replace(/\\(n|r|t|\\)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'r' ? '\r' : c === 't' ? '\t' : '\\'))

export async function* tweCsvItems(chunks: AsyncIterable<Uint8Array>, source: string, n: Numberer): AsyncGenerator<ImportItem> {
  const parser = parse({ columns: true, bom: true, relax_column_count: true, skip_empty_lines: true })
  const feed = (async () => {
    try {
      for await (const s of decodeText(chunks)) if (!parser.write(s)) await new Promise((r) => parser.once('drain', r))
      parser.end()
    } catch (e) { parser.destroy(e as Error) }
  })()
  for await (const row of parser as AsyncIterable<Record<string, string>>) {
    const r: Json = { ...row }
    let bad: string | null = null
    for (const k of JSON_CELLS) {
      if (!r[k]) { r[k] = []; continue }
      try { r[k] = parseJsonText(String(r[k]), `the ${k} cell`) } catch (e) { bad = (e as Error).message }
    }
    if (typeof r.full_text === 'string') r.full_text = unescapeText(r.full_text)
    if (bad) { yield n.item(fail(String(r.id ?? '') || null, bad)); continue }
    yield* n.run(() => [tweOutcome(r, source, row)], String(r.id ?? '') || null)
  }
  await feed
}
