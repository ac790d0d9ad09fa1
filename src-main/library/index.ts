import type { ImportHistoryEntry } from '../../src-shared/schemas/library.ts'
import { zMindmapQuery } from '../../src-shared/schemas/mindmap.ts'
import type { Logger } from '../app/logger.ts'
import { checkpointOffThread, listImportHistory, transaction, type Db } from '../store/index.ts'
import { assembleThreads } from '../threads/index.ts'
import { createBookmarks } from './bookmarks.ts'
import { createCategories } from './categories.ts'
import { startKeyFill } from './duplicate-keys-fill.ts'
import { iso } from './convert.ts'
import { createExporter } from './export/index.ts'
import { createImporter } from './import.ts'
import { createMindmap } from './mindmap.ts'
import { createStats } from './stats.ts'
import { startLanguageUpgrade, type LanguageUpgrade } from './language-upgrade.ts'
import { startWarming } from './warm.ts'

export interface LibraryDeps {
  db: Db
  clock: () => number
  /** "Auto-run after import": receives the ids of new posts and posts whose content changed. */
  onImported?: (ids: number[]) => void | Promise<void>
  /** ImportDeps.beforeCommit. */
  beforeCommit?: (posts: number) => Promise<void>
  /** A person assigned or removed a post's category (the categories of the rest are re-scored). */
  onCategoriesChanged?: () => void
  /** Imports at least this large are parsed on a worker thread (default 2 MiB; tests pin either path). */
  offThreadMinBytes?: number
  log?: Pick<Logger, 'warn' | 'info'>
  /** Detect the language of older posts in the background after start (default true). */
  languageUpgrade?: boolean
  /** Where large zip archives are kept while an import reads them. */
  tempDir?: string
}

/** The library capability: import into the store, browse and edit bookmarks, categories, stats, mind map, export. */
export function createLibrary(deps: LibraryDeps) {
  const { db, clock } = deps
  const categories = createCategories({ db, clock })
  categories.seedDefaults()
  // Libraries from before threads were kept (migration 0012) get theirs; otherwise nothing changes.
  transaction(db, () => assembleThreads(db))
  // Posts a small import could not give a language to (no X code) are detected right after it.
  let languages: LanguageUpgrade | null = null
  const importer = createImporter({ ...deps, onImported: (ids) => {
    languages?.kick()
    deps.onImported?.(ids)
  } })
  // Commits on this connection run on the HTTP thread: SQLite's automatic checkpoint leaves it.
  checkpointOffThread(db)
  const keyFill = startKeyFill({ db })
  const stats = createStats({ db })
  const mindmap = createMindmap({ db })
  const warmer = startWarming({ db, tasks: [stats.get, () => mindmap.get(zMindmapQuery.parse({}))] })
  // Posts stored before languages were kept (migration 0009) get one, a slice at a time.
  if (deps.languageUpgrade !== false) languages = startLanguageUpgrade({ db, log: deps.log })
  return {
    bookmarks: createBookmarks({ db, clock, beforeDuplicates: keyFill.catchUp, onCategoriesChanged: deps.onCategoriesChanged }),
    categories,
    stats,
    mindmap,
    exporter: createExporter({ db, clock }),
    importStream: importer.importStream,
    importFile: importer.importFile,
    importQueue: importer.importQueue,
    importHistory(): ImportHistoryEntry[] {
      return listImportHistory(db).map((h) => ({
        id: h.id,
        createdAt: iso(h.createdAt),
        user: h.userId === null ? null : { id: h.userId, name: h.userName ?? '', email: h.userEmail ?? '' },
        fileName: h.fileName, format: h.format, bytes: h.bytes,
        imported: h.imported, duplicates: h.duplicates, updated: h.updated, errors: h.errors,
      }))
    },
    /** Resolves once every post's language was decided (at once when there was nothing to do). */
    languagesChecked: (): Promise<void> => languages?.idle() ?? Promise.resolve(),
    close: () => {
      warmer.stop()
      languages?.stop()
      keyFill.stop()
    },
  }
}

export type Library = ReturnType<typeof createLibrary>
export type { LibraryImportResult, ImportRequest, QueuedImport } from './import.ts'
export { contentHash, engagementScore } from './convert.ts'
export { slugify } from './categories.ts'
export { filterOf } from './bookmarks.ts'
export { startLanguageUpgrade, type LanguageUpgrade, type LanguageUpgradeOptions } from './language-upgrade.ts'
export { neutralise } from './export/csv.ts'
export { startWarming, type Warmer } from './warm.ts'
