import { stmt, type Db } from '../db.ts'
import type { memberState, reviewDays } from '../schema.ts'

export type ReviewDayRow = typeof reviewDays.$inferSelect
export type ReviewSchedule = Pick<typeof memberState.$inferSelect, 'reviewDue' | 'reviewInterval' | 'reviewedAt'>

/** Posts whose review came round again (kept or put off), never hidden ones; oldest due first. */
export const dueForReview = (db: Db, userId: number, today: number, limit: number): number[] =>
  stmt(db, `SELECT bookmark_id FROM member_state WHERE user_id = ? AND review_due IS NOT NULL AND review_due <= ? AND hidden = 0
    ORDER BY review_due, bookmark_id LIMIT ?`).pluck().all(userId, today, limit) as number[]

/** Starred posts never reviewed. */
export const starredUnreviewed = (db: Db, userId: number, limit: number): number[] =>
  stmt(db, `SELECT bookmark_id FROM member_state WHERE user_id = ? AND starred = 1 AND hidden = 0 AND reviewed_at IS NULL
    ORDER BY bookmark_id LIMIT ?`).pluck().all(userId, limit) as number[]

export const bookmarkIdRange = (db: Db): { min: number; max: number } | null => {
  const r = stmt(db, 'SELECT min(id) AS min, max(id) AS max FROM bookmarks').get() as { min: number | null; max: number | null }
  return r.min === null || r.max === null ? null : { min: r.min, max: r.max }
}

/** Up to `limit` never-reviewed, not hidden posts from id `from` upwards, with whether the member read them. */
export const unreviewedFrom = (db: Db, userId: number, from: number, limit: number): Array<{ id: number; read: number }> =>
  stmt(db, `SELECT b.id, coalesce(s.read, 0) AS read FROM bookmarks b
    LEFT JOIN member_state s ON s.user_id = ? AND s.bookmark_id = b.id
    WHERE b.id >= ? AND (s.bookmark_id IS NULL OR (s.hidden = 0 AND s.reviewed_at IS NULL))
    ORDER BY b.id LIMIT ?`).all(userId, from, limit) as Array<{ id: number; read: number }>

export const reviewScheduleOf = (db: Db, userId: number, id: number): ReviewSchedule | null =>
  (stmt(db, 'SELECT review_due AS reviewDue, review_interval AS reviewInterval, reviewed_at AS reviewedAt FROM member_state WHERE user_id = ? AND bookmark_id = ?')
    .get(userId, id) as ReviewSchedule | undefined) ?? null

/** Records an answer: the post is read, and comes back on `due` (null: never). */
export function putReview(db: Db, userId: number, id: number, s: { due: number | null; interval: number; now: number; day: number }): void {
  stmt(db, `INSERT INTO member_state (user_id, bookmark_id, read, review_due, review_interval, reviewed_at, updated_at)
    VALUES (@user, @id, 1, @due, @interval, @now, @now)
    ON CONFLICT (user_id, bookmark_id) DO UPDATE SET read = 1, review_due = @due, review_interval = @interval, reviewed_at = @now, updated_at = @now`)
    .run({ user: userId, id, due: s.due, interval: s.interval, now: s.now })
  stmt(db, `INSERT INTO review_days (user_id, day, answers) VALUES (?, ?, 1)
    ON CONFLICT (user_id, day) DO UPDATE SET answers = answers + 1`).run(userId, s.day)
}

export const answersOn = (db: Db, userId: number, day: number): number =>
  (stmt(db, 'SELECT answers FROM review_days WHERE user_id = ? AND day = ?').pluck().get(userId, day) as number | undefined) ?? 0

/** The days with answers, latest first. */
export const reviewDayList = (db: Db, userId: number): number[] =>
  stmt(db, 'SELECT day FROM review_days WHERE user_id = ? ORDER BY day DESC').pluck().all(userId) as number[]
