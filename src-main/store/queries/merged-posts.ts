import { idList, stmt, type Db } from '../db.ts'
import type { mergedPosts } from '../schema.ts'

export type MergedPostRecord = typeof mergedPosts.$inferSelect
export type NewMergedPost = Omit<typeof mergedPosts.$inferInsert, 'id'>

const COLUMNS = `id, bookmark_id AS bookmarkId, post_id AS postId, text, author_handle AS authorHandle, author_name AS authorName,
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
  ids.length === 0 ? [] : stmt(db, `SELECT ${COLUMNS} FROM merged_posts WHERE bookmark_id IN (SELECT value FROM json_each(?))
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
