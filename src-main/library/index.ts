import type { ImportHistoryEntry } from '../../src-shared/schemas/library.ts'
import { zMindmapQuery } from '../../src-shared/schemas/mindmap.ts'
import { listImportHistory, type Db } from '../store/index.ts'
import { createBookmarks } from './bookmarks.ts'
import { createCategories } from './categories.ts'
import { iso } from './convert.ts'
import { createExporter } from './export/index.ts'
import { createImporter } from './import.ts'
import { createMindmap } from './mindmap.ts'
import { createStats } from './stats.ts'
import { startWarming } from './warm.ts'

export interface LibraryDeps {
  db: Db
  clock: () => number
  /** "Auto-run after import": receives the ids of new posts and posts whose content changed. */
  onImported?: (ids: number[]) => void
  /** A person assigned or removed a post's category (the categories of the rest are re-scored). */
  onCategoriesChanged?: () => void
  /** Imports at least this large are parsed on a worker thread (default 2 MiB; tests pin either path). */
  offThreadMinBytes?: number
}

/** The library capability: import into the store, browse and edit bookmarks, categories, stats, mind map, export. */
export function createLibrary(deps: LibraryDeps) {
  const { db, clock } = deps
  const categories = createCategories({ db, clock })
  categories.seedDefaults()
  const importer = createImporter(deps)
  const stats = createStats({ db })
  const mindmap = createMindmap({ db })
  const warmer = startWarming({ db, tasks: [stats.get, () => mindmap.get(zMindmapQuery.parse({}))] })
  return {
    bookmarks: createBookmarks({ db, clock, onCategoriesChanged: deps.onCategoriesChanged }),
    categories,
    stats,
    mindmap,
    exporter: createExporter({ db, clock }),
    importStream: importer.importStream,
    importFile: importer.importFile,
    importHistory(): ImportHistoryEntry[] {
      return listImportHistory(db).map((h) => ({
        id: h.id,
        createdAt: iso(h.createdAt),
        user: h.userId === null ? null : { id: h.userId, name: h.userName ?? '', email: h.userEmail ?? '' },
        fileName: h.fileName, format: h.format, bytes: h.bytes,
        imported: h.imported, duplicates: h.duplicates, updated: h.updated, errors: h.errors,
      }))
    },
    close: warmer.stop,
  }
}

export type Library = ReturnType<typeof createLibrary>
export type { LibraryImportResult, ImportRequest } from './import.ts'
export { contentHash, engagementScore } from './convert.ts'
export { slugify } from './categories.ts'
export { filterOf } from './bookmarks.ts'
export { neutralise } from './export/csv.ts'
