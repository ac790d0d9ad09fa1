import type { Stats } from '../../src-shared/schemas/stats.ts'
import {
  countAnalyzed, countBookmarksAll, countByMonth, countBySource, countCategories, countCategorized, countMedia, libraryStamp,
  lastImportAt, mediaCountsByType, topAuthors, topCategories, type Db,
} from '../store/index.ts'
import { iso } from './convert.ts'

const TOP = 10

/** Dashboard figures; computed once per change to the library (the dashboard polls). */
export function createStats({ db }: { db: Db }) {
  let cached: { stamp: string; stats: Stats } | null = null
  return {
    get(): Stats {
      const stamp = libraryStamp(db)
      if (cached?.stamp === stamp) return cached.stats
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
      cached = { stamp, stats }
      return stats
    },
  }
}
