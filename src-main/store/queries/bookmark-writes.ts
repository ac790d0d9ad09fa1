import { sqliteOf, stmt, type Db } from '../db.ts'
import type { BookmarkRow } from '../schema.ts'
import { WITH_RAW_COLUMNS, type BookmarkWithRaw } from './bookmarks.ts'
import { maintainInBackground } from '../maintenance.ts'

/** What the library writes for one post (JSON columns already serialised). */
export type BookmarkValues = Omit<BookmarkRow, 'id' | 'importedAt' | 'updatedAt' | 'langChecked'> & {
  /** false: `lang` is not decided yet (the background language check will); true or absent: it is. */
  langChecked?: boolean
}

export const bookmarkByPostId = (db: Db, postId: string): BookmarkWithRaw | null =>
  (stmt(db, `SELECT ${WITH_RAW_COLUMNS} FROM bookmarks b WHERE b.post_id = ?`).get(postId) as BookmarkWithRaw | undefined) ?? null

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
 * Refreshes the planner's statistics after bulk changes (SQLite decides what needs it), on this
 * connection: on another it would take the write lock for the length of an ANALYZE and make every
 * write here wait for it. `analysis_limit` bounds each index's ANALYZE to a sample, so it stays cheap.
 */
export const optimize = (db: Db): void => {
  sqliteOf(db).pragma('analysis_limit = 1000')
  sqliteOf(db).pragma('optimize')
}

export const setImportedAt = (db: Db, id: number, importedAt: number): void => {
  stmt(db, 'UPDATE bookmarks SET created_at = ? WHERE id = ?').run(importedAt, id)
}
