import { idList, stmt, type Db } from '../db.ts'
import type { NoteRow } from '../schema.ts'

export const noteFor = (db: Db, bookmarkId: number, userId: number): string | null =>
  (stmt(db, 'SELECT text FROM notes WHERE bookmark_id = ? AND user_id = ?').pluck().get(bookmarkId, userId) as string | undefined) ?? null

export function putNote(db: Db, bookmarkId: number, userId: number, text: string, now: number): void {
  stmt(db, `INSERT INTO notes (bookmark_id, user_id, text, created_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (bookmark_id, user_id) DO UPDATE SET text = excluded.text, created_at = excluded.created_at`)
    .run(bookmarkId, userId, text, now)
}

export const deleteNote = (db: Db, bookmarkId: number, userId: number): boolean =>
  stmt(db, 'DELETE FROM notes WHERE bookmark_id = ? AND user_id = ?').run(bookmarkId, userId).changes > 0

/** A note with its author's e-mail (what an export keys notes by). */
export type NoteRecord = NoteRow & { email: string }

/** Every user's notes on the given bookmarks, with the author's e-mail (what an export keys notes by). */
export const notesForBookmarks = (db: Db, ids: readonly number[]): NoteRecord[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT n.bookmark_id AS bookmarkId, n.user_id AS userId, u.email, n.text, n.created_at AS updatedAt
    FROM notes n JOIN users u ON u.id = n.user_id WHERE n.bookmark_id IN (SELECT value FROM json_each(?))
    ORDER BY n.bookmark_id, u.email`).all(idList(ids)) as NoteRecord[]

export const userIdByEmail = (db: Db, email: string): number | null =>
  (stmt(db, 'SELECT id FROM users WHERE email = ?').pluck().get(email.toLowerCase()) as number | undefined) ?? null
