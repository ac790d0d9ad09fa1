import { stringify } from 'csv-stringify/sync'
import { CSV_COLUMNS } from '../../../src-shared/schemas/export.ts'
import type { Db } from '../../store/index.ts'
import { iso, postUrl } from '../convert.ts'
import { exportBatches, type ExportPost, type ExportScope } from './batches.ts'

/**
 * Spreadsheet apps run cells that start with = + - @ (and tab or CR, which some strip first) as
 * formulas; a leading apostrophe makes them text.
 */
export const neutralise = (v: string): string => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v)

const cell = (v: string | number | null | undefined): string | number =>
  v === null || v === undefined ? '' : typeof v === 'number' ? v : neutralise(v)

/** The exporting member's own flags, as spreadsheet apps filter them. */
const flag = (on: boolean | undefined) => (on ? 'true' : 'false')

function row(p: ExportPost): (string | number)[] {
  const e = p.post.engagement
  const values: Record<(typeof CSV_COLUMNS)[number], string | number | null> = {
    id: p.record.id,
    postId: p.post.postId,
    url: postUrl(p.post.authorHandle, p.post.postId),
    authorHandle: p.post.authorHandle,
    authorName: p.post.authorName,
    postCreatedAt: p.post.postCreatedAt,
    importedAt: iso(p.record.importedAt),
    source: p.post.source,
    text: p.post.text,
    categories: p.categories.map((c) => c.name).join('; '),
    tags: p.tags.join('; '),
    summary: p.knowledge?.summary ?? '',
    mediaCount: p.media.length,
    mediaUrls: p.media.map((m) => m.videoUrl ?? m.url).join(' '),
    likes: e.likes,
    reposts: e.reposts,
    replies: e.replies,
    views: e.views,
    note: p.notes.map((n) => n.text).join('\n\n'),
    threadRootPostId: p.thread?.rootPostId ?? '',
    threadPart: p.thread ? p.thread.position : '',
    starred: flag(p.state?.starred),
    read: flag(p.state?.read),
    hidden: flag(p.state?.hidden),
  }
  return CSV_COLUMNS.map((c) => cell(values[c]))
}

/** UTF-8 with a byte-order mark (so spreadsheet apps read it as UTF-8), one batch of rows per chunk. */
export function* csvChunks(db: Db, scope: ExportScope): Generator<string> {
  yield '\uFEFF' + stringify([[...CSV_COLUMNS]], { record_delimiter: '\r\n' })
  for (const batch of exportBatches(db, scope)) yield stringify(batch.map(row), { record_delimiter: '\r\n' })
}
