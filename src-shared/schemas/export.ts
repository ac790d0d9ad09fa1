import { z } from 'zod'
import { zBookmarkFilterQuery } from './library.ts'

export const EXPORT_FORMATS = ['json', 'csv', 'markdown'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export const zExportQuery = zBookmarkFilterQuery.extend({
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}` }).default('json'),
  /** markdown only: one folder per category (default) or one flat folder. */
  layout: z.enum(['folders', 'flat'], { error: 'layout must be folders or flat' }).default('folders'),
})
export type ExportQuery = z.infer<typeof zExportQuery>

/** The CSV columns, in order. */
export const CSV_COLUMNS = [
  'id', 'postId', 'url', 'authorHandle', 'authorName', 'postCreatedAt', 'importedAt', 'source', 'text',
  'categories', 'tags', 'summary', 'mediaCount', 'mediaUrls', 'likes', 'reposts', 'replies', 'views', 'note',
  'threadRootPostId', 'threadPart', 'starred', 'read', 'hidden',
] as const
