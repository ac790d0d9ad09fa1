import { z } from 'zod'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './bookmarks.ts'
import { zStateQuery } from './member.ts'

/** Query-string number: digits only, at least `min`; the message names the parameter. */
const positiveInt = (name: string, min = 1) =>
  z.string().regex(/^\d{1,9}$/, `${name} must be a whole number of at least ${min}`)
    .transform(Number)
    .pipe(z.number().int().min(min, `${name} must be a whole number of at least ${min}`))

/** `imported`: most recently imported first (the posts an import just added lead). */
export const BOOKMARK_SORTS = ['newest', 'oldest', 'popular', 'imported'] as const
export const THREAD_VIEWS = ['all', 'collapsed'] as const
export const MEDIA_FILTERS = ['photo', 'video', 'any', 'none'] as const

const DATE_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/** ISO date (whole UTC day) or date-time; `end` makes a bare date cover the whole day. */
const isoDate = (name: string, end: boolean) =>
  z.string().regex(DATE_RE, `${name} must be an ISO date (2024-05-01) or date-time (2024-05-01T12:00:00Z)`)
    .transform((s, ctx) => {
      const dateOnly = s.length === 10
      const ms = Date.parse(dateOnly ? `${s}T00:00:00Z` : /[Zz+-]\d*:?\d*$/.test(s.slice(10)) ? s : `${s}Z`)
      if (Number.isNaN(ms)) {
        ctx.addIssue({ code: 'custom', message: `${name} is not a real date` })
        return z.NEVER
      }
      return dateOnly && end ? ms + 86_400_000 - 1 : ms
    })

/** An ISO 639-1 language code as Sheaf stores it. */
export const LANG_CODE = /^[a-z]{2}$/

const word = (name: string, max = 200) => z.string().trim().min(1, `${name} must not be empty`).max(max, `${name} is too long`)

/** The filters shared by GET /api/bookmarks, GET /api/export and the mind map. */
export const zBookmarkFilterQuery = z.object({
  category: word('category').optional(),
  source: word('source').optional(),
  q: z.string().trim().max(500, 'q is too long').optional(),
  author: word('author', 100).transform((s) => s.replace(/^@/, '')).optional(),
  media: z.enum(MEDIA_FILTERS, { error: `media must be one of ${MEDIA_FILTERS.join(', ')}` }).optional(),
  from: isoDate('from', false).optional(),
  to: isoDate('to', true).optional(),
  uncategorized: z.enum(['true', 'false', '1', '0'], { error: 'uncategorized must be true or false' })
    .transform((v) => v === 'true' || v === '1').optional(),
  tag: word('tag', 100).transform((s) => s.replace(/^#/, '').toLowerCase()).optional(),
  /** ISO 639-1, as `lang` on a list item (see GET /api/bookmarks/languages). */
  lang: z.string().regex(LANG_CODE, 'lang must be a two-letter ISO 639-1 code in lower case, such as de or es').optional(),
})
export type BookmarkFilterQuery = z.infer<typeof zBookmarkFilterQuery>

export const zBookmarkListQuery = zBookmarkFilterQuery.extend({
  page: positiveInt('page').default(1),
  /** Values above the maximum are clamped (the effective limit is echoed), never refused. */
  limit: positiveInt('limit').default(DEFAULT_PAGE_SIZE).transform((n) => Math.min(n, MAX_PAGE_SIZE)),
  sort: z.enum(BOOKMARK_SORTS, { error: `sort must be one of ${BOOKMARK_SORTS.join(', ')}` }).default('newest'),
  /** `collapsed`: one card per thread (its root); `all` (default): every part. */
  threads: z.enum(THREAD_VIEWS, { error: `threads must be one of ${THREAD_VIEWS.join(', ')}` }).optional(),
  ...zStateQuery.shape,
})
export type BookmarkListQuery = z.infer<typeof zBookmarkListQuery>
export type BookmarkSort = (typeof BOOKMARK_SORTS)[number]

const zSlug = z.string({ error: 'slug must be a string' }).trim().min(1, 'slug must not be empty').max(80)

export const zSetCategoriesBody = z.object({ slugs: z.array(zSlug, { error: 'slugs must be an array of category slugs' }).max(50) })
export const zCategorySlugBody = z.object({ slug: zSlug })
export const zNoteBody = z.object({ text: z.string({ error: 'text must be a string' }).max(20_000, 'text is at most 20,000 characters') })

export const BULK_ACTIONS = ['delete', 'addCategory', 'removeCategory'] as const
export const zBulkBody = z.object({
  ids: z.array(z.number({ error: 'ids must be numbers' }).int().positive(), { error: 'ids must be an array of bookmark ids' })
    .min(1, 'ids must not be empty').max(10_000, 'ids: at most 10,000 at once'),
  action: z.enum(BULK_ACTIONS, { error: `action must be one of ${BULK_ACTIONS.join(', ')}` }),
  slug: zSlug.optional(),
}).refine((b) => b.action === 'delete' || b.slug !== undefined, { error: 'slug is required for addCategory and removeCategory', path: ['slug'] })
export type BulkBody = z.infer<typeof zBulkBody>

export const zBulkResult = z.object({ action: z.enum(BULK_ACTIONS), affected: z.number().int() })

/** GET /api/bookmarks/languages: the languages the library holds, most posts first. */
export const zLanguageCounts = z.object({
  languages: z.array(z.object({ lang: z.string(), count: z.number().int() })),
  /** Posts with no language: too short to tell, only links, media or hashtags. */
  none: z.number().int(),
  /** Posts stored before languages were kept that the background check has not reached yet (part of `none`). */
  pending: z.number().int(),
})
export type LanguageCounts = z.infer<typeof zLanguageCounts>

export const zImportHistoryEntry = z.object({
  id: z.number().int(),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
  user: z.object({ id: z.number().int(), name: z.string(), email: z.string() }).nullable(),
  fileName: z.string(),
  format: z.string(),
  bytes: z.number().int(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  updated: z.number().int(),
  errors: z.number().int(),
})
export type ImportHistoryEntry = z.infer<typeof zImportHistoryEntry>
export const zImportHistory = z.object({ imports: z.array(zImportHistoryEntry) })

/** POST /api/bookmarks/:id/merge: folds post `otherId` into `:id`. */
export const zMergeBody = z.object({ otherId: z.number().int().positive() })
export type MergeBody = z.infer<typeof zMergeBody>
