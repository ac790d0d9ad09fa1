import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { closeDatabase, openDatabase, type Db } from '../../src-main/store/index.ts'
import { insertBookmark, type BookmarkValues } from '../../src-main/store/queries/bookmark-writes.ts'

/**
 * A real SQLite library file in a temporary folder, for the search units' tests; or in `dir` (kept on
 * close, to be opened again), migrated by the migrations in `migrationsDir`.
 */
export function searchDb({ dir, migrationsDir }: { dir?: string; migrationsDir?: string } = {}): { db: Db; add(text: string, handle?: string): number; close(): void } {
  const folder = dir ?? mkdtempSync(join(tmpdir(), 'sheaf-search-unit-'))
  const db = openDatabase({ file: join(folder, 'sheaf.db'), migrationsDir })
  let n = 0
  const add = (text: string, handle = 'someone') => {
    n++
    const v: BookmarkValues = {
      postId: String(7000 + n), text, authorHandle: handle, authorName: handle, postCreatedAt: Date.UTC(2024, 0, 1) + n, source: 'bookmark',
      lang: null, conversationId: null, inReplyToPostId: null, urls: '[]', engagement: '{}', quoted: null, engagementScore: 0, mediaCount: 0,
      rawJson: '{}', contentHash: `h${n}`,
    }
    return insertBookmark(db, v, 0)
  }
  const close = () => {
    closeDatabase(db)
    if (!dir) rmSync(folder, { recursive: true, force: true })
  }
  return { db, add, close }
}

/**
 * Holds this thread (no event-loop turn, so none of its own slices run) for up to `ms`, looking at a
 * queue's size until it is empty; returns the last size seen. Only another thread can empty it meanwhile.
 */
export function holdWhileQueued(ms: number, size: () => number): number {
  const until = Date.now() + ms
  let left = size()
  while (Date.now() < until && left > 0) left = size()
  return left
}
