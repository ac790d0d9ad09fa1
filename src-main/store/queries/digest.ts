import { idList, stmt, type Db } from '../db.ts'
import type { BookmarkRow } from '../schema.ts'

/** [from, to) in epoch ms; `created_at` is when a post was saved (imported). */
export interface TimeWindow {
  from: number
  to: number
}

export const savedBetween = (db: Db, w: TimeWindow): number =>
  stmt(db, 'SELECT count(*) FROM bookmarks WHERE created_at >= ? AND created_at < ?').pluck().get(w.from, w.to) as number

export const analyzedBetween = (db: Db, w: TimeWindow): number =>
  stmt(db, 'SELECT count(*) FROM knowledge WHERE analyzed_at >= ? AND analyzed_at < ?').pluck().get(w.from, w.to) as number

export interface CategoryCount {
  categoryId: number | null
  n: number
}

/** Posts saved in the window per category (a post in two counts in both); `categoryId` null: in none. */
export function savedPerCategory(db: Db, w: TimeWindow): CategoryCount[] {
  const inWindow = savedBetween(db, w)
  const all = stmt(db, 'SELECT count(*) FROM bookmarks').pluck().get() as number
  if (inWindow * 2 <= all) {
    return stmt(db, `SELECT bc.category_id AS categoryId, count(*) AS n FROM bookmarks b INDEXED BY bookmarks_created_at_idx
      LEFT JOIN bookmark_categories bc ON bc.bookmark_id = b.id
      WHERE b.created_at >= ? AND b.created_at < ? GROUP BY bc.category_id`).all(w.from, w.to) as CategoryCount[]
  }
  // Most of the library is in the window: every post's count, less the few outside it.
  const total = stmt(db, `SELECT category_id AS categoryId, count(*) AS n FROM bookmark_categories GROUP BY category_id`).all() as CategoryCount[]
  const categorised = stmt(db, 'SELECT count(DISTINCT bookmark_id) FROM bookmark_categories').pluck().get() as number
  total.push({ categoryId: null, n: all - categorised })
  const outside = stmt(db, `SELECT bc.category_id AS categoryId, count(*) AS n FROM bookmarks b INDEXED BY bookmarks_created_at_idx
    LEFT JOIN bookmark_categories bc ON bc.bookmark_id = b.id
    WHERE b.created_at < ? OR b.created_at >= ? GROUP BY bc.category_id`).all(w.from, w.to) as CategoryCount[]
  const less = new Map(outside.map((r) => [r.categoryId, r.n]))
  return total.map((r) => ({ categoryId: r.categoryId, n: r.n - (less.get(r.categoryId) ?? 0) }))
}

/** Posts analysed in the window per category. */
export function analyzedPerCategory(db: Db, w: TimeWindow): CategoryCount[] {
  return stmt(db, `SELECT bc.category_id AS categoryId, count(*) AS n FROM knowledge k
    LEFT JOIN bookmark_categories bc ON bc.bookmark_id = k.bookmark_id
    WHERE k.analyzed_at >= ? AND k.analyzed_at < ? GROUP BY bc.category_id`).all(w.from, w.to) as CategoryCount[]
}

/**
 * The most engaged-with posts of a category (null: of no category) saved in the window. `walk`: the window holds a
 * large share of the library, so the popularity order is walked until the page fills; else its posts are collected.
 */
export function topSavedIn(db: Db, categoryId: number | null, w: TimeWindow, limit: number, walk: boolean): number[] {
  const inCategory = categoryId === null
    ? 'NOT EXISTS (SELECT 1 FROM bookmark_categories bc WHERE bc.bookmark_id = b.id)'
    : 'EXISTS (SELECT 1 FROM bookmark_categories bc WHERE bc.bookmark_id = b.id AND bc.category_id = @category)'
  const from = walk ? 'bookmarks b INDEXED BY bookmarks_engagement_created_idx' : 'bookmarks b INDEXED BY bookmarks_created_at_idx'
  return stmt(db, `SELECT b.id FROM ${from} WHERE b.created_at >= @from AND b.created_at < @to AND ${inCategory}
    ORDER BY b.engagement_score DESC, b.post_created_at DESC, b.id DESC LIMIT @limit`)
    .pluck().all({ ...(categoryId === null ? {} : { category: categoryId }), from: w.from, to: w.to, limit }) as number[]
}

/** Posts starred in the window, by how many members starred them in it (and still do), most first. */
export const mostStarredBetween = (db: Db, w: TimeWindow, limit: number): Array<{ id: number; stars: number }> =>
  stmt(db, `SELECT s.bookmark_id AS id, count(*) AS stars FROM member_state s INDEXED BY member_state_starred_at_idx
    WHERE s.starred = 1 AND s.starred_at >= ? AND s.starred_at < ?
    GROUP BY s.bookmark_id ORDER BY stars DESC, s.bookmark_id DESC LIMIT ?`).all(w.from, w.to, limit) as Array<{ id: number; stars: number }>

/** The categories of the (at most `recent`) posts a member read last, most read first. */
export const mostReadCategories = (db: Db, userId: number, limit: number, recent: number): number[] =>
  stmt(db, `SELECT bc.category_id FROM (SELECT s.bookmark_id FROM member_state s INDEXED BY member_state_read_recent_idx
      WHERE s.user_id = ? AND s.read = 1 ORDER BY s.updated_at DESC LIMIT ?) r
    JOIN bookmark_categories bc ON bc.bookmark_id = r.bookmark_id GROUP BY bc.category_id ORDER BY count(*) DESC, bc.category_id LIMIT ?`)
    .pluck().all(userId, recent, limit) as number[]

/**
 * Posts saved in the window by someone else (not in an import this member made), in these categories, that the
 * member has neither read nor hidden; most engaged-with first. An import stamps its posts with its own time.
 */
export const savedByOthersIn = (db: Db, userId: number, categoryIds: readonly number[], w: TimeWindow, limit: number, walk: boolean): number[] =>
  stmt(db, `SELECT b.id FROM bookmarks b INDEXED BY ${walk ? 'bookmarks_engagement_created_idx' : 'bookmarks_created_at_idx'}
    WHERE b.created_at >= @from AND b.created_at < @to
    AND EXISTS (SELECT 1 FROM bookmark_categories bc WHERE bc.bookmark_id = b.id AND bc.category_id IN (SELECT value FROM json_each(@categories)))
    AND NOT EXISTS (SELECT 1 FROM import_history h WHERE h.created_at = b.created_at AND h.user_id = @user)
    AND NOT EXISTS (SELECT 1 FROM member_state s WHERE s.user_id = @user AND s.bookmark_id = b.id AND (s.read = 1 OR s.hidden = 1))
    ORDER BY b.engagement_score DESC, b.post_created_at DESC, b.id DESC LIMIT @limit`)
    .pluck().all({ from: w.from, to: w.to, categories: idList(categoryIds), user: userId, limit }) as number[]

export type DigestPostRow = Pick<BookmarkRow, 'id' | 'postId' | 'authorHandle' | 'text'>

export function digestPostRows(db: Db, ids: readonly number[]): DigestPostRow[] {
  if (ids.length === 0) return []
  const rows = stmt(db, `SELECT id, post_id AS postId, author_handle AS authorHandle, substr(text, 1, 200) AS text FROM bookmarks
    WHERE id IN (SELECT value FROM json_each(?))`).all(idList(ids)) as DigestPostRow[]
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => byId.get(id) ?? [])
}

export const bookmarkCount = (db: Db): number => stmt(db, 'SELECT count(*) FROM bookmarks').pluck().get() as number

/** Moves when anyone's state changes (the digest's starred counts). */
export const householdStateVersion = (db: Db): number =>
  stmt(db, 'SELECT total(n) FROM member_state_version').pluck().get() as number
