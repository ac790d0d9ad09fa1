import Database from 'better-sqlite3'

// A connection's plain SQLite side, without drizzle or the store's queries: what a worker thread with a
// connection of its own needs (store/thread/index.ts), and what db.ts builds on.

declare const opened: unique symbol
/** An open library database. Opaque outside the store: only the store's own functions look inside. */
export type Db = { readonly [opened]: true }

/** The SQLite connection itself, for tests and benches that check what landed on disk (no face exports it). */
export const sqliteOf = (db: Db): Database.Database => (db as unknown as { $client: Database.Database }).$client

/**
 * A second connection to a library another connection opened (and migrated), for a worker thread:
 * no migrations, a small page cache, and no checkpoints of its own (the maintenance thread copies the
 * WAL). Its writes wait for the lock in SQLite's busy handler, on the worker's own thread.
 */
export function attachDatabase(file: string): Db {
  const client = new Database(file, { fileMustExist: true })
  applyPragmas(client)
  client.pragma('cache_size = -2048')
  client.pragma('wal_autocheckpoint = 0')
  return { $client: client } as unknown as Db
}

/** Closes a connection attachDatabase made. */
export function detachDatabase(db: Db): void {
  sqliteOf(db).close()
}

/**
 * Runs `fn` in one SQLite transaction (all or nothing). IMMEDIATE: it takes the write lock at BEGIN,
 * waiting its busy time-out for it, since the maintenance thread also writes (the word index): a
 * deferred one that read first would fail at once with SQLITE_BUSY if that thread committed meanwhile.
 */
export const transaction = <T>(db: Db, fn: () => T): T => runnerOf(db).immediate(fn) as T

/** Reads in one snapshot. DEFERRED: it never takes the write lock, so it never waits for another writer. */
export const readTransaction = <T>(db: Db, fn: () => T): T => runnerOf(db).deferred(fn) as T

/**
 * One transaction function a connection, given the work as its argument: better-sqlite3's
 * `transaction(fn)` builds four wrapped functions on every call (~0.01 ms; a search makes one).
 */
const runners = new WeakMap<Database.Database, Database.Transaction<(fn: () => unknown) => unknown>>()
export function runnerOf(db: Db): Database.Transaction<(fn: () => unknown) => unknown> {
  const client = sqliteOf(db)
  let run = runners.get(client)
  if (!run) runners.set(client, (run = client.transaction((fn: () => unknown) => fn())))
  return run
}

export function applyPragmas(client: Database.Database): void {
  client.pragma('journal_mode = WAL')
  client.pragma('synchronous = NORMAL')
  client.pragma('foreign_keys = ON')
  client.pragma('busy_timeout = 5000')
  // Memory: mapped pages count toward the process's resident size, and a 100,000-post library's file
  // outgrows any map worth keeping; 16 MB of page cache holds the indexes the hot reads walk (the
  // operating system's file cache holds the rest; 32 MB added 16 MB to the server's peak).
  client.pragma('cache_size = -16384')
  client.pragma('temp_store = MEMORY')
  client.pragma('mmap_size = 0')
}

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
