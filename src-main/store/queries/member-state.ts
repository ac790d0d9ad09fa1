import { idList, libraryStamp, sqliteOf, stmt, type Db } from '../db.ts'
import type { memberState, NoteRow, reviewDays } from '../schema.ts'

/** What each member keeps on a post: read, starred and hidden flags, the review schedule and days, notes. */

export type MemberStateRow = typeof memberState.$inferSelect
export type StateFlag = 'read' | 'starred' | 'hidden'
export const STATE_FLAGS: readonly StateFlag[] = ['read', 'starred', 'hidden']
export type StateFlags = Record<StateFlag, boolean>
export type StateChange = Partial<StateFlags>

/**
 * One member's state as a list filter: `true` keeps only posts with the flag, `false` only posts without it.
 * The library passes `hidden: false` unless hidden posts were asked for.
 */
export interface StateFilter extends StateChange {
  userId: number
}

const CLEAR: StateFlags = { read: false, starred: false, hidden: false }

/** The member's flags on the given posts; posts they never touched are absent (all clear). */
export function statesFor(db: Db, userId: number, ids: readonly number[]): Map<number, StateFlags> {
  if (ids.length === 0) return new Map()
  const rows = stmt(db, `SELECT bookmark_id AS id, read, starred, hidden FROM member_state
    WHERE user_id = ? AND bookmark_id IN (SELECT value FROM json_each(?))`).all(userId, idList(ids)) as Array<{ id: number } & Record<StateFlag, number>>
  return new Map(rows.map((r) => [r.id, { read: r.read === 1, starred: r.starred === 1, hidden: r.hidden === 1 }]))
}

export const stateOf = (db: Db, userId: number, id: number): StateFlags => statesFor(db, userId, [id]).get(id) ?? { ...CLEAR }

const flag = (v: boolean | undefined): number | null => (v === undefined ? null : v ? 1 : 0)

/**
 * Sets the given flags on every listed post that exists, in one statement (a bulk change is one transaction
 * with its caller's). Returns how many posts it touched.
 */
export function putStates(db: Db, userId: number, ids: readonly number[], change: StateChange, now: number): number {
  return stmt(db, `INSERT INTO member_state (user_id, bookmark_id, read, starred, hidden, starred_at, updated_at)
    SELECT @user, b.id, coalesce(@read, 0), coalesce(@starred, 0), coalesce(@hidden, 0), CASE WHEN @starred = 1 THEN @now END, @now
    FROM bookmarks b WHERE b.id IN (SELECT value FROM json_each(@ids))
    ON CONFLICT (user_id, bookmark_id) DO UPDATE SET
      read = coalesce(@read, read), hidden = coalesce(@hidden, hidden),
      starred_at = CASE WHEN @starred = 1 AND starred = 0 THEN @now WHEN @starred = 0 THEN NULL ELSE starred_at END,
      starred = coalesce(@starred, starred), updated_at = @now`)
    .run({ user: userId, ids: idList(ids), read: flag(change.read), starred: flag(change.starred), hidden: flag(change.hidden), now }).changes
}

/** Moves when this member's state changes (a trigger-kept counter, migration 0011). */
export const memberStateVersion = (db: Db, userId: number): number =>
  (stmt(db, 'SELECT n FROM member_state_version WHERE user_id = ?').pluck().get(userId) as number | undefined) ?? 0

const EXISTS = (f: StateFlag) => `EXISTS (SELECT 1 FROM member_state s WHERE s.user_id = ? AND s.bookmark_id = b.id AND s.${f} = 1)`
const IN = (f: StateFlag) => `b.id IN (SELECT s.bookmark_id FROM member_state s WHERE s.user_id = ? AND s.${f} = 1)`

/**
 * The state filter as SQL on the alias `b`. A wanted flag is collected from its partial index (`IN`), unless
 * the page walks the sort order (`walk`), when each row is probed instead; an unwanted flag is always probed.
 */
export function stateClauses(s: StateFilter, walk: boolean): { clauses: string[]; params: unknown[] } {
  const clauses: string[] = []
  const params: unknown[] = []
  for (const f of STATE_FLAGS) {
    if (s[f] === undefined) continue
    clauses.push(s[f] ? (walk ? EXISTS(f) : IN(f)) : `NOT ${EXISTS(f)}`)
    params.push(s.userId)
  }
  return { clauses, params }
}

const idSets = new WeakMap<object, Map<string, { stamp: string; ids: Set<number> }>>()

/** The ids of the member's posts with a flag, cached until their state or the library changes (a `q` page is cut with it). */
export function stateIds(db: Db, userId: number, f: StateFlag): Set<number> {
  const stamp = `${memberStateVersion(db, userId)}:${libraryStamp(db)}`
  let byKey = idSets.get(sqliteOf(db))
  if (!byKey) idSets.set(sqliteOf(db), (byKey = new Map()))
  const key = `${userId}:${f}`
  const hit = byKey.get(key)
  if (hit && hit.stamp === stamp) return hit.ids
  const ids = new Set(stmt(db, `SELECT bookmark_id FROM member_state WHERE user_id = ? AND ${f} = 1`).pluck().all(userId) as number[])
  byKey.set(key, { stamp, ids })
  return ids
}

/**
 * A merge folds each member's state on post `from` into post `to`: read and starred if either was, hidden only
 * if both were (one visible copy keeps it visible); a member with no state on `to` takes theirs from `from` as is.
 */
export function foldMemberState(db: Db, from: number, to: number, now: number): void {
  stmt(db, `UPDATE member_state AS t SET read = max(t.read, o.read), starred = max(t.starred, o.starred),
      starred_at = CASE WHEN t.starred = 1 THEN t.starred_at ELSE o.starred_at END, hidden = min(t.hidden, o.hidden), updated_at = ?
    FROM member_state AS o WHERE t.bookmark_id = ? AND o.bookmark_id = ? AND o.user_id = t.user_id`).run(now, to, from)
  stmt(db, `INSERT OR IGNORE INTO member_state (user_id, bookmark_id, read, starred, hidden, starred_at, review_due, review_interval, reviewed_at, updated_at)
    SELECT user_id, ?, read, starred, hidden, starred_at, review_due, review_interval, reviewed_at, ? FROM member_state WHERE bookmark_id = ?`).run(to, now, from)
}

/** Drive from the rarest flag's partial index. */
const DRIVE_ORDER: readonly StateFlag[] = ['hidden', 'starred', 'read']

/** A category or tag a count is limited to, by its link table. */
export interface LinkScope {
  table: 'bookmark_categories' | 'bookmark_tags'
  column: 'category_id' | 'tag_id'
  id: number
  /** How many posts it holds (to choose which side drives the count). */
  size: number
}

/**
 * Posts the member has all `flags` on, from their rows alone (a row's post always exists): a covering count of a
 * partial index, never a read of the posts. With `scope`, joined with its link table, the smaller side first.
 */
export function countFlagged(db: Db, userId: number, flags: readonly StateFlag[], scope?: LinkScope): number {
  const drive = DRIVE_ORDER.find((f) => flags.includes(f))!
  const rest = flags.filter((f) => f !== drive).map((f) => ` AND s.${f} = 1`).join('')
  const own = `s.user_id = @user AND s.${drive} = 1${rest}`
  if (!scope) return stmt(db, `SELECT count(*) FROM member_state s INDEXED BY member_state_${drive}_idx WHERE ${own}`).pluck().get({ user: userId }) as number
  const flagged = countFlagged(db, userId, flags)
  const sql = scope.size <= flagged
    ? `SELECT count(*) FROM ${scope.table} l CROSS JOIN member_state s WHERE l.${scope.column} = @id AND s.user_id = @user AND s.bookmark_id = l.bookmark_id AND s.${drive} = 1${rest}`
    : `SELECT count(*) FROM member_state s INDEXED BY member_state_${drive}_idx CROSS JOIN ${scope.table} l WHERE ${own} AND l.bookmark_id = s.bookmark_id AND l.${scope.column} = @id`
  return stmt(db, sql).pluck().get({ user: userId, id: scope.id }) as number
}

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
