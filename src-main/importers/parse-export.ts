import { AppError } from '../../src-shared/errors.ts'
import { IMPORT_FORMATS, type ImportFormat } from '../../src-shared/schemas/posts.ts'
import { acceptedFormatsText, detectFormat, whyNotAnExport } from './detect.ts'
import { archiveFileItems, archiveKind, archiveZipItems } from './formats/x-archive.ts'
import { flatOutcome } from './formats/flat-fetch.ts'
import { createSheafReader } from './formats/sheaf.ts'
import { fileSource, siftlyOutcome } from './formats/siftly.ts'
import { twillotOutcome } from './formats/twillot.ts'
import { tweCsvItems } from './formats/twitter-web-exporter-csv.ts'
import { tweOutcome } from './formats/twitter-web-exporter.ts'
import { v1Outcome } from './formats/twitter-v1.ts'
import { entryOutcomes, graphqlSource, isGraphqlRecord, tweetOutcome } from './formats/x-graphql.ts'
import { decodeText, openSource, type ByteSource, type ExportInput } from './input.ts'
import { streamJson, type JsonPath } from './json-stream.ts'
import { asObject, type Json } from './normalize/values.ts'
import { Numberer, oversizedRecord, type ImportItem, type Outcome, type ParsedExport, type ParseOptions } from './types.ts'

const topLevel = (path: JsonPath) => path.length === 1
const inBookmarks = (path: JsonPath) =>
  (path.length === 2 && path[0] === 'bookmarks') || (path.length === 1 && typeof path[0] === 'number')

const graphqlRecord = (path: JsonPath) =>
  isGraphqlRecord(path) || (path.length > 1 && (path[path.length - 1] === 'tweetResult' || path[path.length - 1] === 'tweet_result'))

/** A top-level `"source": "…"` stated in the file, when it is visible in the bytes read so far. */
const statedSource = (head: string): string | null => {
  const m = /"source"\s*:\s*"([^"\\]{1,40})"\s*[,}]/.exec(head)
  return m ? fileSource(m[1]) : null
}

type RecordFn = (value: unknown) => Iterable<Outcome>

async function* jsonItems(src: ByteSource, n: Numberer, isRecord: (p: JsonPath) => boolean, each: RecordFn, onRest?: (rest: unknown) => Iterable<Outcome>, longIntegers = true): AsyncGenerator<ImportItem> {
  // for...of + yield, not yield*: delegating to a sync generator wraps every item in an async-from-sync step
  for await (const ev of streamJson(decodeText(src.chunks()), isRecord, { longIntegers })) {
    if (ev.kind === 'record') for (const it of n.run(() => each(ev.value), postIdOf(ev.value))) yield it
    else if (ev.kind === 'oversized') yield n.item(oversizedRecord(ev.chars))
    else if (onRest) for (const it of n.run(() => onRest(ev.value))) yield it
  }
}

const postIdOf = (v: unknown): string | null => {
  const o = asObject(v)
  const id = o?.id_str ?? o?.tweet_id ?? o?.postId ?? o?.id ?? o?.rest_id
  return typeof id === 'string' && /^\d+$/.test(id) ? id : null
}

/**
 * Reads an export of any supported kind. The format comes from the content (first 64 KB), never
 * from the name; JSON is streamed record by record, so a 150 MB file is never held whole (zip
 * archives are the exception: fflate needs all of it). Items are produced lazily and only once.
 */
export async function parseExport(input: ExportInput, opts: ParseOptions = {}): Promise<ParsedExport> {
  const src = await openSource(input)
  if (src.head.length === 0) throw new AppError('VALIDATION_ERROR', 'The file is empty (0 bytes).')
  const format = detectFormat(src.head)
  if (!format) {
    const kind = archiveKind(new TextDecoder().decode(src.head.subarray(0, 200)))
    if (kind) {
      throw new AppError('VALIDATION_ERROR',
        'This X archive file holds no posts; import data/tweets.js, data/like.js or the whole archive .zip.', { accepted: [...IMPORT_FORMATS] })
    }
    const why = whyNotAnExport(new TextDecoder().decode(src.head), src.complete)
    throw new AppError('VALIDATION_ERROR', `This file is ${why.reason}.`,
      { ...why.details, accepted: [...IMPORT_FORMATS], formats: acceptedFormatsText() })
  }
  const head = new TextDecoder().decode(src.head).replace(/^\uFEFF/, '')
  const n = new Numberer()
  const sheaf = format === 'sheaf' ? createSheafReader() : null
  if (sheaf) {
    const version = /"version"\s*:\s*(\d+)/.exec(head.slice(0, 4096))?.[1]
    if (version && version !== '1') throw new AppError('VALIDATION_ERROR', `This Sheaf export is version ${version}; this Sheaf reads version 1. Update Sheaf to import it.`)
  }
  return { format, items: itemsFor(format, src, head, n, sheaf, opts), extras: () => sheaf?.extras() ?? null }
}

/** The items of one format; a plain format hands back its reader itself (no extra async step per item). */
function itemsFor(format: ImportFormat, src: ByteSource, head: string, n: Numberer, sheaf: ReturnType<typeof createSheafReader> | null, opts: ParseOptions): AsyncIterable<ImportItem> {
  switch (format) {
    case 'x-graphql': {
      const source = graphqlSource(head)
      return jsonItems(src, n, graphqlRecord, (v) => {
        const o = asObject(v)
        if (o && !o.entryId && !o.content && !o.item && o.result) return [tweetOutcome(o.result, source, o.result)]
        return entryOutcomes(v, source)
      }, undefined, false)
    }
    case 'x-archive': {
      const kind = archiveKind(head) ?? (/^\s*\[\s*\{\s*"like"/.test(head) ? 'like' : 'tweets')
      return archiveFileItems(decodeText(src.chunks()), kind, { owner: null, notes: new Map() }, n)
    }
    case 'x-archive-zip':
      return archiveZipItems(src.chunks(), n, { tempDir: opts.tempDir, limits: opts.zipLimits })
    case 'siftly':
      return siftlyItems(src, head, n)
    case 'flat-fetch': {
      const source = statedSource(head.slice(0, 500)) ?? 'bookmark'
      return jsonItems(src, n, inBookmarks, (v) => [flatOutcome(v, source)])
    }
    case 'twitter-web-exporter-json':
      return jsonItems(src, n, topLevel, (v) => [tweOutcome(asObject(v) ?? ({} as Json), 'bookmark', v)])
    case 'twitter-web-exporter-csv':
      return tweCsvItems(src.chunks(), 'bookmark', n)
    case 'twillot':
      return jsonItems(src, n, topLevel, (v) => [twillotOutcome(v, 'bookmark')])
    case 'twitter-v1':
      return jsonItems(src, n, topLevel, (v) => [v1Outcome(v, 'bookmark')])
    case 'sheaf':
      return jsonItems(src, n, (p) => p.length === 2 && p[0] === 'bookmarks', (v) => [sheaf!.outcome(v)], (rest) => sheaf!.finish(rest))
  }
}

async function* siftlyItems(src: ByteSource, head: string, n: Numberer): AsyncGenerator<ImportItem> {
  const known = statedSource(head.slice(0, 200)) ?? (src.complete ? statedSource(lastTopLevel(head)) : null)
  if (known) { yield* jsonItems(src, n, inBookmarks, (v) => [siftlyOutcome(v, known)]); return }
  // The bookmarklet writes `source` after the rows: hold this (small) file's posts until it is read.
  const held: ImportItem[] = []
  for await (const it of jsonItems(src, n, inBookmarks, (v) => [siftlyOutcome(v, 'bookmark')],
    (rest) => { const s = fileSource(asObject(rest)?.source); for (const h of held) if (h.kind === 'post') h.post.source = s; return [] })) {
    held.push(it)
  }
  yield* held
}

/** The tail of a complete small file, where a trailing top-level key sits. */
const lastTopLevel = (text: string) => text.slice(Math.max(0, text.lastIndexOf(']') ))
