import { AppError, type ErrorCode } from '../../src-shared/errors.ts'
import type { ImportFormat, PostMedia } from '../../src-shared/schemas/posts.ts'
import type { ImportItem, SheafExtras } from '../importers/index.ts'
import { loadLanguageDetector, needsDetection, postLanguage, type LanguageDetector } from '../language/index.ts'
import type { BookmarkValues } from '../store/index.ts'
import { postToValues } from './convert.ts'

/**
 * One record of an export, ready to write: a post already converted to its row values (dates
 * parsed, JSON columns serialised, content hash taken), or the record's error or skip. The same
 * preparation runs in the parse worker and, for small files, in the importer itself.
 */
export type PreparedItem =
  | { kind: 'post'; index: number; values: BookmarkValues; media: PostMedia[] }
  | { kind: 'error'; index: number; postId: string | null; reason: string }
  | { kind: 'skipped'; index: number; reason: string }

/**
 * The longest post text kept, in characters: X allows 25,000 in a long post, and the margin covers
 * links, which X counts as 23 characters but an export carries in full.
 */
export const MAX_POST_TEXT_CHARS = 30_000

/** Characters (code points) beyond the limit, or 0; counted only for a text that may be over it. */
function overLimit(text: string | null | undefined): number {
  if (!text || text.length <= MAX_POST_TEXT_CHARS) return 0
  let n = 0
  for (const _ of text) n++
  return n > MAX_POST_TEXT_CHARS ? n : 0
}

/**
 * A post that cannot be converted (e.g. an unreadable date) or is longer than any post on X becomes
 * that record's error. The post's language is X's own code (normalised to ISO 639-1) or, when the
 * export has none, `detect`'s answer; without a detector such a post is left for the background
 * language check (langChecked false).
 */
export function prepareItem(item: ImportItem, detect: LanguageDetector | null = null): PreparedItem {
  if (item.kind !== 'post') return item
  const long = overLimit(item.post.text) || overLimit(item.post.quoted?.text)
  if (long) {
    return { kind: 'error', index: item.index, postId: item.post.postId,
      reason: `its text is ${long.toLocaleString('en')} characters long; X allows 25,000 and Sheaf keeps up to ${MAX_POST_TEXT_CHARS.toLocaleString('en')}, so it was not imported` }
  }
  try {
    const values = postToValues(item.post)
    values.lang = postLanguage(item.post.lang, item.post.text, detect)
    if (!detect && needsDetection(item.post.lang)) values.langChecked = false
    return { kind: 'post', index: item.index, values, media: item.post.media }
  } catch (e) {
    return { kind: 'error', index: item.index, postId: item.post.postId, reason: (e as Error).message }
  }
}

/**
 * Prepares records in order. `detect`: the parse worker detects languages itself, loading the detector
 * when the first post without a usable code arrives (an export whose posts all carry X's code never
 * loads it); on the server's thread they are marked (langChecked false) and detected per batch on a
 * language worker (import-source.ts), so that thread never holds the detector.
 */
export function createPreparer({ detect: detectHere }: { detect: boolean }): (item: ImportItem) => PreparedItem | Promise<PreparedItem> {
  let detect: LanguageDetector | null = null
  return (item) => {
    if (detect || !detectHere || item.kind !== 'post' || !needsDetection(item.post.lang)) return prepareItem(item, detect)
    return loadLanguageDetector().then((d) => prepareItem(item, (detect = d)))
  }
}

// --- messages between the importer and its parse worker --------------------------------------------

/**
 * A batch crosses the thread boundary as one flat array (a tag, then the fields in a fixed order):
 * structured clone of 1,000 objects with 16 named fields each cost the importer's thread about twice
 * as much as the same values in one array (measured: ~0.6 s against ~0.3 s per 100,000 posts).
 */
export type WireBatch = unknown[]

const POST = 0, ERROR = 1, SKIPPED = 2

export function encodeBatch(items: readonly PreparedItem[]): WireBatch {
  const out: unknown[] = []
  for (const it of items) {
    if (it.kind === 'post') {
      const v = it.values
      out.push(POST, it.index, v.postId, v.text, v.authorHandle, v.authorName, v.postCreatedAt, v.source, v.lang, v.conversationId,
        v.inReplyToPostId, v.urls, v.engagement, v.quoted, v.engagementScore, v.mediaCount, v.rawJson, v.contentHash, v.langChecked !== false, it.media.length)
      for (const m of it.media) out.push(m.type, m.url, m.thumbnailUrl, m.videoUrl, m.altText, m.width, m.height, m.durationMs)
    } else if (it.kind === 'error') {
      out.push(ERROR, it.index, it.postId, it.reason)
    } else {
      out.push(SKIPPED, it.index, it.reason)
    }
  }
  return out
}

export function decodeBatch(a: WireBatch): PreparedItem[] {
  const out: PreparedItem[] = []
  let i = 0
  while (i < a.length) {
    const tag = a[i++] as number
    const index = a[i++] as number
    if (tag === ERROR) {
      out.push({ kind: 'error', index, postId: a[i++] as string | null, reason: a[i++] as string })
    } else if (tag === SKIPPED) {
      out.push({ kind: 'skipped', index, reason: a[i++] as string })
    } else {
      const values: BookmarkValues = {
        postId: a[i] as string, text: a[i + 1] as string, authorHandle: a[i + 2] as string, authorName: a[i + 3] as string,
        postCreatedAt: a[i + 4] as number, source: a[i + 5] as string, lang: a[i + 6] as string | null,
        conversationId: a[i + 7] as string | null, inReplyToPostId: a[i + 8] as string | null, urls: a[i + 9] as string,
        engagement: a[i + 10] as string, quoted: a[i + 11] as string | null, engagementScore: a[i + 12] as number,
        mediaCount: a[i + 13] as number, rawJson: a[i + 14] as string, contentHash: a[i + 15] as string,
        langChecked: a[i + 16] as boolean,
      }
      const n = a[i + 17] as number
      i += 18
      const media: PostMedia[] = []
      for (let k = 0; k < n; k++, i += 8) {
        media.push({
          type: a[i] as PostMedia['type'], url: a[i + 1] as string, thumbnailUrl: a[i + 2] as string, videoUrl: a[i + 3] as string | null,
          altText: a[i + 4] as string | null, width: a[i + 5] as number | null, height: a[i + 6] as number | null, durationMs: a[i + 7] as number | null,
        })
      }
      out.push({ kind: 'post', index, values, media })
    }
  }
  return out
}

/** An error as it crosses threads: AppError keeps its code and details, anything else its message. */
export interface WireError { app: boolean; code: ErrorCode; message: string; details?: unknown }

export const toWireError = (e: unknown): WireError =>
  e instanceof AppError
    ? { app: true, code: e.code, message: e.message, details: e.details }
    : { app: false, code: 'INTERNAL_ERROR', message: e instanceof Error ? e.message : String(e) }

export const fromWireError = (w: WireError): Error =>
  w.app ? new AppError(w.code, w.message, w.details) : new Error(w.message)

/** What the importer hands over per pull (the upload's own chunks, joined up to this size). */
export const PULL_BYTES = 256 << 10

/** Importer → worker. `credit`: one more batch may be sent. */
export type ToWorker =
  | { type: 'bytes'; chunk: Uint8Array }
  | { type: 'end' }
  | { type: 'credit' }

/** Worker → importer, in this order: format, batches, then done or error (error may come at any point). */
export type FromWorker =
  | { type: 'pull' }
  | { type: 'format'; format: ImportFormat }
  | { type: 'batch'; batch: WireBatch }
  | { type: 'done'; extras: SheafExtras | null }
  | { type: 'error'; error: WireError }
