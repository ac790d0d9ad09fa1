import type { Stats } from '../../src-shared/schemas/stats.ts'
import {
  countAnalyzed, countBookmarksAll, countByMonth, countBySource, countCategories, countCategorized, countMedia, inTransaction, libraryStamp,
  lastImportAt, mediaCountsByType, topAuthors, topCategories, type Db,
} from '../store/index.ts'
import { iso } from './convert.ts'

const TOP = 10

/** How long the figures are reused while an import writes (as a list's `q`, bookmarks.ts). */
const REUSE_MS = 1000

/**
 * Dashboard figures; computed once per change to the library (the dashboard polls), and at most once
 * a second while an import's transaction is open: it adds posts every few milliseconds, and each
 * request then counted the whole library again (~3 ms; 160 ms of every second of the HTTP thread at
 * 50 requests/s in bench/load.ts). Its posts show up within the second.
 */
export function createStats({ db }: { db: Db }) {
  let cached: { stamp: string; stats: Stats; at: number } | null = null
  return {
    get(): Stats {
      const stamp = libraryStamp(db)
      if (cached && (cached.stamp === stamp || (inTransaction(db) && performance.now() - cached.at < REUSE_MS))) return cached.stats
      const total = countBookmarksAll(db)
      const categorized = countCategorized(db)
      const last = lastImportAt(db)
      const stats: Stats = {
        totalBookmarks: total,
        categorizedBookmarks: categorized,
        uncategorizedBookmarks: total - categorized,
        totalCategories: countCategories(db),
        totalMediaItems: countMedia(db),
        recentImport: last === null ? null : iso(last),
        topCategories: topCategories(db, TOP),
        analyzedBookmarks: countAnalyzed(db),
        bySource: countBySource(db),
        byMonth: countByMonth(db),
        mediaByType: mediaCountsByType(db),
        topAuthors: topAuthors(db, TOP),
      }
      cached = { stamp, stats, at: performance.now() }
      return stats
    },
  }
}
