import type Database from 'better-sqlite3'
import type { Db } from '../db.ts'

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>()

/** A prepared statement, compiled once per connection and reused (the hot paths run thousands of times). */
export function stmt(db: Db, sql: string): Database.Statement {
  let byText = cache.get(db.$client)
  if (!byText) cache.set(db.$client, (byText = new Map()))
  let s = byText.get(sql)
  if (!s) byText.set(sql, (s = db.$client.prepare(sql)))
  return s
}

/** Binds an id list as one JSON parameter, so `IN (SELECT value FROM json_each(?))` statements stay cacheable. */
export const idList = (ids: readonly number[]): string => JSON.stringify(ids)

/** Changes on this connection plus commits by other connections: a cheap "has anything changed" stamp. */
export function dataStamp(db: Db): string {
  const own = stmt(db, 'select total_changes() as n').get() as { n: number }
  const others = db.$client.pragma('data_version', { simple: true }) as number
  return `${own.n}:${others}`
}
