import { setImmediate } from 'node:timers/promises'
import { idList, sqliteOf, stmt, type Db } from '../db.ts'
import type { BookmarkRow, mergedPosts } from '../schema.ts'
import { maintainInBackground } from '../maintenance.ts'

/** The library's writes of posts: the import's inserts and updates, and the records of posts merged into others. */

/** What the library writes for one post (JSON columns already serialised). */
export type BookmarkValues = Omit<BookmarkRow, 'id' | 'importedAt' | 'updatedAt' | 'langChecked'> & {
  /** false: `lang` is not decided yet (the background language check will); true or absent: it is. */
  langChecked?: boolean
}

export const bookmarkIdByPostId = (db: Db, postId: string): number | null =>
  (stmt(db, 'SELECT id FROM bookmarks WHERE post_id = ?').pluck().get(postId) as number | undefined) ?? null

/** Every stored post id (an import checks new posts against this instead of one SELECT per post). */
export const allPostIds = (db: Db): Set<string> =>
  new Set(stmt(db, 'SELECT post_id FROM bookmarks').pluck().all() as string[])

/**
 * Inserts one post and queues it for the search index (words and sentence vector). Since migration
 * 0007 no trigger does the queueing on insert: a bulk writer uses insertBookmarkRow and queues a
 * whole batch at once with queueNewPostsForSearch.
 */
export function insertBookmark(db: Db, v: BookmarkValues, importedAt: number): number {
  const id = insertBookmarkRow(db, v, importedAt)
  queueNewPostsForSearch(db, id - 1)
  return id
}

/**
 * The row alone, not queued for search: the caller must call queueNewPostsForSearch before committing.
 * `lang` is the caller's decision (the importer's, see src-main/language) unless `langChecked` is false.
 */
export function insertBookmarkRow(db: Db, v: BookmarkValues, importedAt: number): number {
  return Number(stmt(db, `INSERT INTO bookmarks (post_id, text, author_handle, author_name, post_created_at, created_at, source, lang,
      conversation_id, in_reply_to_post_id, urls, engagement, quoted, engagement_score, media_count, raw_json, content_hash, lang_checked)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(v.postId, v.text, v.authorHandle, v.authorName, v.postCreatedAt, importedAt, v.source, v.lang, v.conversationId,
      v.inReplyToPostId, v.urls, v.engagement, v.quoted, v.engagementScore, v.mediaCount, v.rawJson, v.contentHash,
      v.langChecked === false ? null : 1).lastInsertRowid)
}

/**
 * An archive's tweets.js holds only its owner's posts, yet without manifest.js only those with a media
 * link of their own name the owner. When the new own posts (ids above `afterId`) name exactly one
 * handle, those stored as `unknownHandle` take it. Returns how many changed.
 */
export function adoptSoleOwnerHandle(db: Db, afterId: number, unknownHandle: string): number {
  const handles = stmt(db, "SELECT DISTINCT author_handle FROM bookmarks WHERE id > ? AND source = 'own_post' AND author_handle <> ?")
    .pluck().all(afterId, unknownHandle) as string[]
  if (handles.length !== 1) return 0
  return stmt(db, "UPDATE bookmarks SET author_handle = ? WHERE id > ? AND source = 'own_post' AND author_handle = ?")
    .run(handles[0], afterId, unknownHandle).changes
}

/** The largest post id so far (0 when empty); rows inserted later have larger ids. */
export const maxBookmarkId = (db: Db): number =>
  stmt(db, 'SELECT coalesce(max(id), 0) FROM bookmarks').pluck().get() as number

/**
 * Queues every post with an id above `afterId` for the search index (FTS words and sentence vector),
 * in two set-based statements: what the per-row insert trigger did before migration 0007.
 */
export function queueNewPostsForSearch(db: Db, afterId: number): void {
  stmt(db, 'INSERT INTO search_fts_queue(bookmark_id) SELECT id FROM bookmarks WHERE id > ? ON CONFLICT DO NOTHING').run(afterId)
  stmt(db, 'INSERT INTO search_queue(bookmark_id) SELECT id FROM bookmarks WHERE id > ? ON CONFLICT DO NOTHING').run(afterId)
}

/** Rewrites the post's own fields; categories, notes and knowledge live elsewhere and are untouched. */
export function updateBookmark(db: Db, id: number, v: BookmarkValues, now: number): void {
  stmt(db, `UPDATE bookmarks SET text = ?, author_handle = ?, author_name = ?, post_created_at = ?, source = ?, lang = ?,
      conversation_id = ?, in_reply_to_post_id = ?, urls = ?, engagement = ?, quoted = ?, engagement_score = ?, media_count = ?,
      raw_json = ?, content_hash = ?, updated_at = ? WHERE id = ?`)
    .run(v.text, v.authorHandle, v.authorName, v.postCreatedAt, v.source, v.lang, v.conversationId, v.inReplyToPostId, v.urls,
      v.engagement, v.quoted, v.engagementScore, v.mediaCount, v.rawJson, v.contentHash, now, id)
}

export interface WriteTransaction {
  /**
   * `deferCheckpoint`: a bulk commit leaves copying its WAL pages into the database file (SQLite's
   * automatic checkpoint, ~0.6 s after 100,000 posts) to the connection's next commit, or to an idle
   * moment a second later, instead of doing it before this call returns.
   */
  commit(opts?: { deferCheckpoint?: boolean }): void
  rollback(): void
}

/**
 * A write transaction the caller holds across awaits (an import applies batches as the file streams
 * in). IMMEDIATE takes the write lock at once so the work never fails half-way on a busy database.
 * Statements other requests run on this connection meanwhile belong to it too, so callers keep the
 * window short and allow one at a time.
 */
export function beginWrite(db: Db): WriteTransaction {
  const client = sqliteOf(db)
  if (client.inTransaction) throw new Error('a write transaction is already open on this connection')
  client.exec('BEGIN IMMEDIATE')
  let open = true
  return {
    commit(opts = {}) {
      if (!open) return
      open = false
      if (!opts.deferCheckpoint) return client.exec('COMMIT')
      const every = client.pragma('wal_autocheckpoint', { simple: true }) as number
      client.pragma('wal_autocheckpoint = 0')
      try {
        client.exec('COMMIT')
      } finally {
        client.pragma(`wal_autocheckpoint = ${every}`)
      }
      maintainInBackground(client, 'checkpoint')
    },
    rollback() {
      if (!open) return
      open = false
      if (client.inTransaction) client.exec('ROLLBACK')
    },
  }
}

/**
 * Refreshes the planner's statistics after bulk changes (SQLite decides which tables need it), on this
 * connection: on another it would take the write lock for the length of an ANALYZE and make every
 * write here wait for it. `analysis_limit` bounds each index's ANALYZE to a sample. One table per turn
 * of the event loop, requests answered between: the whole `PRAGMA optimize` after a 10,000-post import
 * held the HTTP thread 30-45 ms in one piece (profiled), just as every kept answer had gone stale.
 * Best effort: a table skipped (a transaction open meanwhile, the library closed, an error) is
 * analysed after the next import.
 */
export async function optimize(db: Db): Promise<void> {
  const client = sqliteOf(db)
  const run = (sql: string) => {
    try {
      if (!client.open || client.inTransaction) return []
      const statement = client.prepare(sql)
      return statement.reader ? statement.all() : (statement.run(), [])
    } catch {
      return [] // the next import's optimize tries again
    }
  }
  run('PRAGMA analysis_limit = 1000')
  // Debugging mode (0x1) with the default checks: the ANALYZE statements it would run, none run yet.
  for (const { optimize: sql } of run('PRAGMA optimize(0xffff)') as Array<{ optimize: string }>) {
    await setImmediate()
    run(sql)
  }
}

export const setImportedAt = (db: Db, id: number, importedAt: number): void => {
  stmt(db, 'UPDATE bookmarks SET created_at = ? WHERE id = ?').run(importedAt, id)
}

export type MergedPostRecord = typeof mergedPosts.$inferSelect
export type NewMergedPost = Omit<typeof mergedPosts.$inferInsert, 'id'>

const MERGED_COLUMNS = `id, bookmark_id AS bookmarkId, post_id AS postId, text, author_handle AS authorHandle, author_name AS authorName,
  post_created_at AS postCreatedAt, imported_at AS importedAt, source, lang, urls, engagement, quoted, raw_json AS rawJson,
  merged_at AS mergedAt, merged_by AS mergedBy`

/** Keeps a merged post's record on the post it was folded into; a post id already kept is left as it is. */
export function insertMergedPost(db: Db, m: NewMergedPost): boolean {
  return stmt(db, `INSERT OR IGNORE INTO merged_posts (bookmark_id, post_id, text, author_handle, author_name, post_created_at, imported_at,
      source, lang, urls, engagement, quoted, raw_json, merged_at, merged_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(m.bookmarkId, m.postId, m.text, m.authorHandle, m.authorName, m.postCreatedAt, m.importedAt, m.source, m.lang ?? null,
      m.urls ?? '[]', m.engagement ?? '{}', m.quoted ?? null, m.rawJson, m.mergedAt, m.mergedBy ?? null).changes > 0
}

export const mergedPostsFor = (db: Db, ids: readonly number[]): MergedPostRecord[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT ${MERGED_COLUMNS} FROM merged_posts WHERE bookmark_id IN (SELECT value FROM json_each(?))
    ORDER BY bookmark_id, merged_at, id`).all(idList(ids)) as MergedPostRecord[]

/** Post ids folded into other posts: an import counts them as duplicates instead of adding them again. */
export const allMergedPostIds = (db: Db): Set<string> =>
  new Set(stmt(db, 'SELECT post_id FROM merged_posts').pluck().all() as string[])

/**
 * Folds what belongs to post `from` into post `to` (the caller deletes `from` afterwards, in the same
 * transaction): the records merged into `from` earlier, each member's note (joined when both have one),
 * a person's category choices and removals, tags, media `to` does not show yet (with their cached copy
 * and analysis), and the analysis when `to` has none.
 */
export function foldBookmarkInto(db: Db, from: number, to: number, now: number): void {
  stmt(db, 'UPDATE merged_posts SET bookmark_id = ? WHERE bookmark_id = ?').run(to, from)
  stmt(db, `UPDATE notes SET text = text || char(10) || char(10) || (SELECT o.text FROM notes o WHERE o.bookmark_id = ? AND o.user_id = notes.user_id),
      created_at = ?
    WHERE bookmark_id = ? AND user_id IN (SELECT o.user_id FROM notes o WHERE o.bookmark_id = ? AND o.text <> notes.text)`).run(from, now, to, from)
  stmt(db, `INSERT OR IGNORE INTO notes (bookmark_id, user_id, text, created_at)
    SELECT ?, user_id, text, created_at FROM notes WHERE bookmark_id = ?`).run(to, from)
  stmt(db, `INSERT INTO bookmark_categories (bookmark_id, category_id, confidence, assigned_by, created_at)
    SELECT ?, category_id, 1, 'user', ? FROM bookmark_categories WHERE bookmark_id = ? AND assigned_by = 'user'
    ON CONFLICT (bookmark_id, category_id) DO UPDATE SET assigned_by = 'user', confidence = 1`).run(to, now, from)
  stmt(db, `INSERT OR IGNORE INTO category_rejections (bookmark_id, category_id, created_at)
    SELECT ?, r.category_id, r.created_at FROM category_rejections r WHERE r.bookmark_id = ?
      AND NOT EXISTS (SELECT 1 FROM bookmark_categories c WHERE c.bookmark_id = ? AND c.category_id = r.category_id AND c.assigned_by = 'user')`)
    .run(to, from, to)
  stmt(db, 'INSERT OR IGNORE INTO bookmark_tags (bookmark_id, tag_id) SELECT ?, tag_id FROM bookmark_tags WHERE bookmark_id = ?').run(to, from)
  const have = new Set(stmt(db, 'SELECT url FROM media WHERE bookmark_id = ?').pluck().all(to) as string[])
  let next = stmt(db, 'SELECT coalesce(max(position), -1) + 1 FROM media WHERE bookmark_id = ?').pluck().get(to) as number
  const theirs = stmt(db, 'SELECT id, url FROM media WHERE bookmark_id = ? ORDER BY position').all(from) as Array<{ id: number; url: string }>
  for (const m of theirs) {
    if (have.has(m.url)) continue
    have.add(m.url)
    stmt(db, 'UPDATE media SET bookmark_id = ?, position = ? WHERE id = ?').run(to, next++, m.id)
  }
  stmt(db, 'UPDATE bookmarks SET media_count = (SELECT count(*) FROM media WHERE bookmark_id = ?) WHERE id = ?').run(to, to)
  stmt(db, 'UPDATE knowledge SET bookmark_id = ? WHERE bookmark_id = ? AND NOT EXISTS (SELECT 1 FROM knowledge WHERE bookmark_id = ?)').run(to, from, to)
}

/** Rewrites a post's engagement (after a merge took the larger numbers of both records). */
export function setEngagement(db: Db, id: number, engagement: string, score: number, now: number): void {
  stmt(db, 'UPDATE bookmarks SET engagement = ?, engagement_score = ?, updated_at = ? WHERE id = ?').run(engagement, score, now, id)
}
