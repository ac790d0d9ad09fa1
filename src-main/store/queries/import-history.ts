import { stmt, type Db } from '../db.ts'
import type { ImportHistoryRow } from '../schema.ts'

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
