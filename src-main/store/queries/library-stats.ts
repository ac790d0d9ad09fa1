import type { Db } from '../db.ts'
import { stmt } from './statements.ts'

export const countBookmarksAll = (db: Db): number => stmt(db, 'SELECT count(*) FROM bookmarks').pluck().get() as number

export const countBySource = (db: Db): { source: string; count: number }[] =>
  stmt(db, 'SELECT source, count(*) AS count FROM bookmarks GROUP BY source ORDER BY count DESC').all() as { source: string; count: number }[]

/** Posts per month of posting; scans the date index only. */
export const countByMonth = (db: Db): { month: string; count: number }[] =>
  stmt(db, `SELECT strftime('%Y-%m', post_created_at / 1000, 'unixepoch') AS month, count(*) AS count
    FROM bookmarks GROUP BY month ORDER BY month`).all() as { month: string; count: number }[]

export const topAuthors = (db: Db, limit: number): { handle: string; name: string; count: number }[] =>
  stmt(db, `SELECT author_handle AS handle, max(author_name) AS name, count(*) AS count FROM bookmarks
    GROUP BY author_handle ORDER BY count DESC, handle LIMIT ?`).all(limit) as { handle: string; name: string; count: number }[]
