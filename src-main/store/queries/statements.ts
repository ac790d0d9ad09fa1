import type Database from 'better-sqlite3'
import { sqliteOf, type Db } from '../db.ts'

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>()

/** A prepared statement, compiled once per connection and reused (the hot paths run thousands of times). */
export function stmt(db: Db, sql: string): Database.Statement {
  let byText = cache.get(sqliteOf(db))
  if (!byText) cache.set(sqliteOf(db), (byText = new Map()))
  let s = byText.get(sql)
  if (!s) byText.set(sql, (s = sqliteOf(db).prepare(sql)))
  return s
}

/** Binds an id list as one JSON parameter, so `IN (SELECT value FROM json_each(?))` statements stay cacheable. */
export const idList = (ids: readonly number[]): string => JSON.stringify(ids)

/** Changes on this connection plus commits by other connections: a cheap "has anything changed" stamp. */
export function dataStamp(db: Db): string {
  // One prepared statement: pragma() compiles its statement on every call (a hot path: each list page).
  const r = stmt(db, 'select total_changes() as n, (select data_version from pragma_data_version) as v').get() as { n: number; v: number }
  return `${r.n}:${r.v}`
}

/**
 * Moves when anything the library's lists, counts, stats or mind map read changes, and not when the
 * search index writes in the background (which dataStamp counts). Updates and deletes move the
 * trigger-kept counter (migration 0004); new rows move the largest id, so imports pay no per-row cost.
 */
export function libraryStamp(db: Db): string {
  const r = stmt(db, `SELECT (SELECT n FROM library_version WHERE id = 1) AS n, (SELECT max(id) FROM bookmarks) AS b,
    (SELECT max(id) FROM media) AS m`).get() as { n: number; b: number | null; m: number | null }
  return `${r.n}:${r.b}:${r.m}`
}
