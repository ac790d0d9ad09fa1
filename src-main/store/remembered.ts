import { setImmediate } from 'node:timers'
import type Database from 'better-sqlite3'
import { sqliteOf, stmt, type Db } from './connection.ts'

/**
 * Small values read from the library on every request (a setting, the signing key's version, a user's
 * role, the stamps), kept in memory until the library may have changed. Two counters say so:
 *
 * - `total_changes()` moves with every row this connection writes (the app's own writes: settings
 *   saved, a key rotated, a user changed). It needs no transaction (~0.4 µs), so it is read on every use:
 *   a write is seen by the very next read, in the same request too.
 * - `PRAGMA data_version` moves with every commit of any other connection to the file: another thread's
 *   (the maintenance thread, a worker), another process's (`sheaf secret rotate`, the CLI). It opens a
 *   read transaction (~3 µs, as much as the reads it saves), so it is read again only at the start of
 *   each request (`noticeCommits`, the HTTP app's first middleware) and on the first use after each turn
 *   of the event loop: a commit that finished before a request arrived is seen by that request.
 *
 * Nothing is kept inside a transaction (a rollback takes its writes back, not total_changes), and
 * nothing is kept for a connection in memory's lack of other writers: the rule is the same for all.
 * The values are keyed by what they are (a setting's key, a user's id), never by a post or a question.
 */
interface Memory {
  /** data_version as last read, or null when it must be read again. */
  version: number | null
  values: Map<string, { changes: number; version: number; value: unknown }>
}

const memories = new WeakMap<Database.Database, Memory>()

function memoryOf(client: Database.Database): Memory {
  let m = memories.get(client)
  if (!m) memories.set(client, (m = { version: null, values: new Map() }))
  return m
}

function versionOf(db: Db, m: Memory): number {
  if (m.version !== null) return m.version
  const v = stmt(db, 'PRAGMA data_version').pluck().get() as number
  m.version = v
  setImmediate(() => {
    m.version = null
  }).unref()
  return v
}

/** A request begins: commits by other connections up to now count for what it reads. */
export function noticeCommits(db: Db): void {
  const m = memories.get(sqliteOf(db))
  if (m) m.version = null
}

/** `read()`, or what it returned last under the same counters. */
export function remembered<T>(db: Db, key: string, read: () => T): T {
  const client = sqliteOf(db)
  if (client.inTransaction || !client.open) return read()
  const m = memoryOf(client)
  const changes = stmt(db, 'SELECT total_changes()').pluck().get() as number
  const version = versionOf(db, m)
  const kept = m.values.get(key)
  if (kept && kept.changes === changes && kept.version === version) return kept.value as T
  const value = read()
  m.values.set(key, { changes, version, value })
  return value
}
