import { idList, stmt, type Db } from '../db.ts'
import type { bookmarkCategories, CategoryRow } from '../schema.ts'

export type CategoryRecord = Omit<CategoryRow, 'createdAt'> & { bookmarkCount: number }

const WITH_COUNT = `SELECT c.id, c.name, c.slug, c.color, c.description, c.position,
  (SELECT count(*) FROM bookmark_categories bc WHERE bc.category_id = c.id) AS bookmarkCount FROM categories c`

export const listCategories = (db: Db): CategoryRecord[] =>
  stmt(db, `${WITH_COUNT} ORDER BY c.position, c.name COLLATE NOCASE, c.id`).all() as CategoryRecord[]

export const categoryById = (db: Db, id: number): CategoryRecord | null =>
  (stmt(db, `${WITH_COUNT} WHERE c.id = ?`).get(id) as CategoryRecord | undefined) ?? null

export const categoryBySlug = (db: Db, slug: string): CategoryRecord | null =>
  (stmt(db, `${WITH_COUNT} WHERE c.slug = ?`).get(slug) as CategoryRecord | undefined) ?? null

export const categoryIdsBySlugs = (db: Db, slugs: readonly string[]): Map<string, number> =>
  new Map((stmt(db, 'SELECT slug, id FROM categories WHERE slug IN (SELECT value FROM json_each(?))').all(JSON.stringify(slugs)) as
    { slug: string; id: number }[]).map((r) => [r.slug, r.id]))

export const countCategories = (db: Db): number => stmt(db, 'SELECT count(*) FROM categories').pluck().get() as number

export const nextCategoryPosition = (db: Db): number =>
  (stmt(db, 'SELECT coalesce(max(position) + 1, 0) FROM categories').pluck().get() as number)

export function insertCategory(db: Db, c: { name: string; slug: string; color: string; description: string; position: number; createdAt: number }): number {
  return Number(stmt(db, 'INSERT INTO categories (name, slug, color, description, position, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(c.name, c.slug, c.color, c.description, c.position, c.createdAt).lastInsertRowid)
}

export function updateCategory(db: Db, id: number, c: { name: string; slug: string; color: string; description: string; position: number }): void {
  stmt(db, 'UPDATE categories SET name = ?, slug = ?, color = ?, description = ?, position = ? WHERE id = ?')
    .run(c.name, c.slug, c.color, c.description, c.position, id)
}

export const deleteCategory = (db: Db, id: number): boolean =>
  stmt(db, 'DELETE FROM categories WHERE id = ?').run(id).changes > 0

/** Moves every assignment (and rejection) of `from` onto `into`, keeping the stronger of duplicate assignments. */
export function mergeCategoryInto(db: Db, from: number, into: number): void {
  stmt(db, `INSERT INTO bookmark_categories (bookmark_id, category_id, confidence, assigned_by, created_at)
      SELECT bookmark_id, ?, confidence, assigned_by, created_at FROM bookmark_categories WHERE category_id = ?
      ON CONFLICT (bookmark_id, category_id) DO UPDATE SET
        assigned_by = CASE WHEN excluded.assigned_by = 'user' THEN 'user' ELSE assigned_by END,
        confidence = max(confidence, excluded.confidence)`).run(into, from)
  stmt(db, `INSERT OR IGNORE INTO category_rejections (bookmark_id, category_id, created_at)
      SELECT bookmark_id, ?, created_at FROM category_rejections WHERE category_id = ?`).run(into, from)
  stmt(db, 'DELETE FROM categories WHERE id = ?').run(from)
}

/** A category on a post, as a page of posts shows it. */
export type BookmarkCategory = { bookmarkId: number } & Pick<CategoryRow, 'id' | 'name' | 'slug' | 'color'> &
  Pick<typeof bookmarkCategories.$inferSelect, 'assignedBy' | 'confidence'>

/** Category summaries for a page of bookmarks, in one query. */
export const categoriesForBookmarks = (db: Db, ids: readonly number[]): BookmarkCategory[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT bc.bookmark_id AS bookmarkId, c.id, c.name, c.slug, c.color, bc.assigned_by AS assignedBy, bc.confidence
    FROM bookmark_categories bc JOIN categories c ON c.id = bc.category_id
    WHERE bc.bookmark_id IN (SELECT value FROM json_each(?)) ORDER BY bc.bookmark_id, c.position, c.name`).all(idList(ids)) as BookmarkCategory[]

/** The analysis's assignments below `threshold` confidence, least sure first, and how many there are. */
export function lowConfidenceAssignments(db: Db, threshold: number, limit: number, offset: number): { rows: Array<{ bookmarkId: number; categoryId: number }>; total: number } {
  const rows = stmt(db, `SELECT bookmark_id AS bookmarkId, category_id AS categoryId FROM bookmark_categories
    WHERE assigned_by = 'pipeline' AND confidence < ? ORDER BY confidence, bookmark_id, category_id LIMIT ? OFFSET ?`).all(threshold, limit, offset) as Array<{ bookmarkId: number; categoryId: number }>
  const total = stmt(db, "SELECT count(*) FROM bookmark_categories WHERE assigned_by = 'pipeline' AND confidence < ?").pluck().get(threshold) as number
  return { rows, total }
}

export type Assignment = Pick<typeof bookmarkCategories.$inferSelect, 'categoryId' | 'assignedBy'>

export const assignmentsOf = (db: Db, bookmarkId: number): Assignment[] =>
  stmt(db, 'SELECT category_id AS categoryId, assigned_by AS assignedBy FROM bookmark_categories WHERE bookmark_id = ?').all(bookmarkId) as Assignment[]

/** A user's assignment wins over (and replaces) a pipeline one, and lifts an earlier rejection. */
export function assignCategory(db: Db, bookmarkId: number, categoryId: number, by: 'user' | 'pipeline', now: number, confidence = 1): boolean {
  if (by === 'user') stmt(db, 'DELETE FROM category_rejections WHERE bookmark_id = ? AND category_id = ?').run(bookmarkId, categoryId)
  const r = stmt(db, `INSERT INTO bookmark_categories (bookmark_id, category_id, confidence, assigned_by, created_at) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (bookmark_id, category_id) DO UPDATE SET assigned_by = CASE WHEN excluded.assigned_by = 'user' THEN 'user' ELSE assigned_by END,
      confidence = CASE WHEN excluded.assigned_by = 'user' THEN 1 ELSE confidence END`)
    .run(bookmarkId, categoryId, confidence, by, now)
  return r.changes > 0
}

/** Removes an assignment; a removed pipeline assignment is remembered so the pipeline does not put it back. */
export function unassignCategory(db: Db, bookmarkId: number, categoryId: number, now: number): boolean {
  const row = stmt(db, 'SELECT assigned_by FROM bookmark_categories WHERE bookmark_id = ? AND category_id = ?').pluck().get(bookmarkId, categoryId) as string | undefined
  if (row === undefined) return false
  stmt(db, 'DELETE FROM bookmark_categories WHERE bookmark_id = ? AND category_id = ?').run(bookmarkId, categoryId)
  if (row === 'pipeline') {
    stmt(db, 'INSERT OR IGNORE INTO category_rejections (bookmark_id, category_id, created_at) VALUES (?, ?, ?)').run(bookmarkId, categoryId, now)
  }
  return true
}

export const rejectionsOf = (db: Db, bookmarkId: number): number[] =>
  stmt(db, 'SELECT category_id FROM category_rejections WHERE bookmark_id = ?').pluck().all(bookmarkId) as number[]

/** Bookmarks with at least one category; the one definition of "categorized". */
export const countCategorized = (db: Db): number =>
  stmt(db, 'SELECT count(DISTINCT bookmark_id) FROM bookmark_categories').pluck().get() as number

export const topCategories = (db: Db, limit: number): { name: string; count: number }[] =>
  stmt(db, `SELECT c.name, count(*) AS count FROM bookmark_categories bc JOIN categories c ON c.id = bc.category_id
    GROUP BY c.id ORDER BY count DESC, c.name LIMIT ?`).all(limit) as { name: string; count: number }[]
