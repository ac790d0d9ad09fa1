import type { ZipLimits } from './zip-reader.ts'
import type { ImportFormat, NormalizedPost } from '../../src-shared/schemas/posts.ts'
import type { SheafBookmarkExtras, SheafCategory } from '../../src-shared/schemas/sheaf-export.ts'

export type ImportItem =
  | { kind: 'post'; index: number; post: NormalizedPost }
  | { kind: 'error'; index: number; postId: string | null; reason: string }
  | { kind: 'skipped'; index: number; reason: string }

/** What a Sheaf export carries beyond the posts, keyed for the store to re-attach losslessly. */
export interface SheafExtras {
  exportedAt: string
  categories: SheafCategory[]
  /** By post id; every post of the file has an entry. */
  bookmarks: Map<string, SheafBookmarkExtras>
}

export interface ParsedExport {
  format: ImportFormat
  /** Single-use. Throws AppError VALIDATION_ERROR mid-way if the file turns out invalid or truncated. */
  items: AsyncIterable<ImportItem>
  /** Available once `items` is fully consumed (Sheaf format only; null otherwise). */
  extras?: () => SheafExtras | null
}

export interface ParseOptions {
  fileName?: string
  now?: () => Date
  /** Where a large zip archive is kept while it is read (default: the system's temporary folder). */
  tempDir?: string
  /** The zip limits (zip-reader.ts ZIP_LIMITS by default; tests lower them). */
  zipLimits?: ZipLimits
}

/** One record's result before it is numbered. */
export type Outcome =
  | { kind: 'post'; post: NormalizedPost }
  | { kind: 'error'; postId: string | null; reason: string }
  | { kind: 'skipped'; reason: string }

export const ok = (post: NormalizedPost): Outcome => ({ kind: 'post', post })
export const fail = (postId: string | null, reason: string): Outcome => ({ kind: 'error', postId, reason })
export const skip = (reason: string): Outcome => ({ kind: 'skipped', reason })

/** Numbers outcomes in file order; a record whose normaliser throws becomes an error, never a failed file. */
/** The error of a record too large to be a post (see MAX_RECORD_CHARS), skipped without being read. */
export const oversizedRecord = (chars: number): Outcome =>
  fail(null, `this record is ${Math.round(chars / 1048576)} MB long, far more than any post; it was skipped`)

export class Numberer {
  private n = 0
  item(o: Outcome): ImportItem {
    const index = this.n++
    return { ...o, index } as ImportItem
  }
  *run(fn: () => Iterable<Outcome>, postId: string | null = null): Generator<ImportItem> {
    let produced: Outcome[]
    try {
      produced = [...fn()]
    } catch (e) {
      produced = [fail(postId, `could not read this record: ${(e as Error).message}`)]
    }
    for (const o of produced) yield this.item(o)
  }
}
