import { z } from 'zod'

/** GET /api/stats. The first seven fields are the spec's; the rest feed the dashboard charts. */
export const zStats = z.object({
  totalBookmarks: z.number().int(),
  /** Bookmarks with at least one category (the same rule as `uncategorized=true` on the list). */
  categorizedBookmarks: z.number().int(),
  uncategorizedBookmarks: z.number().int(),
  totalCategories: z.number().int(),
  totalMediaItems: z.number().int(),
  /** ISO 8601 time of the last import, or null when nothing was ever imported. */
  recentImport: z.string().nullable(),
  topCategories: z.array(z.object({ name: z.string(), count: z.number().int() })),
  /** Bookmarks with a Knowledge record. */
  analyzedBookmarks: z.number().int(),
  bySource: z.array(z.object({ source: z.string(), count: z.number().int() })),
  /** Posts per month of posting (YYYY-MM), oldest first. */
  byMonth: z.array(z.object({ month: z.string(), count: z.number().int() })),
  mediaByType: z.array(z.object({ type: z.string(), count: z.number().int() })),
  topAuthors: z.array(z.object({ handle: z.string(), name: z.string(), count: z.number().int() })),
})
export type Stats = z.infer<typeof zStats>
