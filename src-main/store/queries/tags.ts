import { idList, stmt, type Db } from '../db.ts'

/** Tag names per bookmark for the given ids. */
export const tagsForBookmarks = (db: Db, ids: readonly number[]): { bookmarkId: number; tagId: number; name: string }[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT bt.bookmark_id AS bookmarkId, t.id AS tagId, t.name FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id
    WHERE bt.bookmark_id IN (SELECT value FROM json_each(?)) ORDER BY bt.bookmark_id, t.name`).all(idList(ids)) as
    { bookmarkId: number; tagId: number; name: string }[]

/** The id of a tag by name, creating it when new (names are stored as given: callers normalise). */
export function ensureTag(db: Db, name: string): number {
  const id = stmt(db, 'SELECT id FROM tags WHERE name = ?').pluck().get(name) as number | undefined
  if (id !== undefined) return id
  return Number(stmt(db, 'INSERT INTO tags (name) VALUES (?)').run(name).lastInsertRowid)
}

export const tagBookmark = (db: Db, bookmarkId: number, tagId: number): void => {
  stmt(db, 'INSERT OR IGNORE INTO bookmark_tags (bookmark_id, tag_id) VALUES (?, ?)').run(bookmarkId, tagId)
}

