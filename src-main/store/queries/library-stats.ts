import { stmt, type Db } from '../db.ts'
import type { ImportHistoryRow } from '../schema.ts'

/** The library's counts (by source, month, author) and its import history. */

export const countBookmarksAll = (db: Db): number => stmt(db, 'SELECT count(*) FROM bookmarks').pluck().get() as number

export const countBySource = (db: Db): { source: string; count: number }[] =>
  stmt(db, 'SELECT source, count(*) AS count FROM bookmarks GROUP BY source ORDER BY count DESC').all() as { source: string; count: number }[]

/**
 * Posts per month of posting (UTC), months without posts left out. One index range count per month:
 * formatting the date of every row cost ~80 ms at 100,000 posts.
 */
export function countByMonth(db: Db): { month: string; count: number }[] {
  const span = stmt(db, 'SELECT min(post_created_at) AS lo, max(post_created_at) AS hi FROM bookmarks').get() as { lo: number | null; hi: number | null }
  if (span.lo === null || span.hi === null) return []
  const count = stmt(db, 'SELECT count(*) FROM bookmarks WHERE post_created_at >= ? AND post_created_at < ?').pluck()
  const out: { month: string; count: number }[] = []
  const first = new Date(span.lo)
  for (let y = first.getUTCFullYear(), m = first.getUTCMonth(); ; m++) {
    const start = Date.UTC(y, m, 1)
    if (start > span.hi) break
    const n = count.get(start, Date.UTC(y, m + 1, 1)) as number
    const d = new Date(start)
    if (n > 0) out.push({ month: `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`, count: n })
  }
  return out
}

/**
 * Counted from the lower(author_handle) index alone (handles are case-insensitive on X, so `Alice` and
 * `alice` are one author); the shown handle and name are read for the top rows only.
 */
export const topAuthors = (db: Db, limit: number): { handle: string; name: string; count: number }[] =>
  stmt(db, `SELECT (SELECT max(author_handle) FROM bookmarks WHERE lower(author_handle) = t.k) AS handle,
      (SELECT max(author_name) FROM bookmarks WHERE lower(author_handle) = t.k) AS name, t.count
    FROM (SELECT lower(author_handle) AS k, count(*) AS count FROM bookmarks GROUP BY lower(author_handle) ORDER BY count DESC, k LIMIT ?) t
    ORDER BY t.count DESC, t.k`).all(limit) as { handle: string; name: string; count: number }[]

/** An import as the history lists it, with who ran it. */
export type ImportHistoryRecord = ImportHistoryRow & { userName: string | null; userEmail: string | null }

export function insertImportHistory(db: Db, r: Omit<ImportHistoryRow, 'id'>): number {
  return Number(stmt(db, `INSERT INTO import_history (user_id, file_name, format, bytes, imported, duplicates, updated, errors, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(r.userId, r.fileName, r.format, r.bytes, r.imported, r.duplicates, r.updated, r.errors, r.createdAt).lastInsertRowid)
}

export const listImportHistory = (db: Db, limit = 200): ImportHistoryRecord[] =>
  stmt(db, `SELECT h.id, h.user_id AS userId, u.name AS userName, u.email AS userEmail, h.file_name AS fileName, h.format, h.bytes,
      h.imported, h.duplicates, h.updated, h.errors, h.created_at AS createdAt
    FROM import_history h LEFT JOIN users u ON u.id = h.user_id ORDER BY h.created_at DESC, h.id DESC LIMIT ?`).all(limit) as ImportHistoryRecord[]

export const lastImportAt = (db: Db): number | null =>
  (stmt(db, 'SELECT max(created_at) FROM import_history').pluck().get() as number | null) ?? null
