import Database from 'better-sqlite3'
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkpointInBackground, stopMaintenance } from './maintenance.ts'
import { applyPragmas, runnerOf, sqliteOf, stmt, type Db } from './connection.ts'
import { remembered } from './remembered.ts'
import * as schema from './schema.ts'

/** The driver's handle (drizzle over better-sqlite3): only src-main/store/ sees it. */
export type Connection = BetterSQLite3Database<typeof schema> & { $client: Database.Database }

export const connection = (db: Db): Connection => db as unknown as Connection

export { attachDatabase, detachDatabase, type Db, idList, readTransaction, sqliteOf, stmt, transaction } from './connection.ts'

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../drizzle')
const KEEP_BACKUPS = 3

export interface OpenDatabaseOptions {
  /** Path of the SQLite file; ':memory:' for throwaway databases. */
  file: string
  migrationsDir?: string
  log?: (msg: string) => void
}

export function openDatabase({ file, migrationsDir = MIGRATIONS_DIR, log = () => {} }: OpenDatabaseOptions): Db {
  const isFile = file !== ':memory:'
  if (isFile) mkdirSync(dirname(file), { recursive: true })
  const existed = isFile && existsSync(file)
  const client = new Database(file)
  applyPragmas(client)
  if (existed && pendingMigrations(client, migrationsDir) > 0) backup(client, file, log)
  const db = drizzle(client, { schema }) as Connection
  migrate(db, { migrationsFolder: migrationsDir })
  return db as unknown as Db
}

export const isOpen = (db: Db): boolean => sqliteOf(db).open

/** The library's file, or null for a database in memory (which no other thread can open). */
export const databaseFile = (db: Db): string | null => {
  const file = sqliteOf(db).name
  return file && file !== ':memory:' ? file : null
}

/** A write transaction is open on the connection (an import holds one across awaits). */
export const inTransaction = (db: Db): boolean => sqliteOf(db).inTransaction

/**
 * `transaction`, but only if the write lock is free now: `{ value }`, or null (nothing done) while
 * another connection writes. Waiting in SQLite's busy handler blocks this thread, and it sleeps in
 * steps of up to 100 ms, so a caller on the HTTP thread retries after a short await instead.
 */
export function transactionIfFree<T>(db: Db, fn: () => T): { value: T } | null {
  // Prepared once: the pipeline polls here every 2 ms while another connection writes, and pragma()
  // compiles its statement on each call (110 ms of the HTTP thread in 4 s of bench/load.ts).
  const timeout = stmt(db, 'PRAGMA busy_timeout').pluck().get() as number
  stmt(db, 'PRAGMA busy_timeout = 0').get()
  try {
    return { value: runnerOf(db).immediate(fn) as T }
  } catch (e) {
    if (String((e as { code?: unknown }).code).startsWith('SQLITE_BUSY')) return null
    throw e
  } finally {
    stmt(db, `PRAGMA busy_timeout = ${Number(timeout)}`).get()
  }
}

function pendingMigrations(client: Database.Database, migrationsDir: string): number {
  const journal = JSON.parse(readFileSync(join(migrationsDir, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] }
  const hasTable = client
    .prepare("select 1 from sqlite_master where type='table' and name='__drizzle_migrations'")
    .get()
  if (!hasTable) return journal.entries.length
  const { n } = client.prepare('select count(*) as n from __drizzle_migrations').get() as { n: number }
  return journal.entries.length - n
}

/** A consistent copy (VACUUM INTO) before migrations touch an existing library. */
function backup(client: Database.Database, file: string, log: (msg: string) => void): void {
  const dir = join(dirname(file), 'backups')
  mkdirSync(dir, { recursive: true })
  const target = join(dir, `sheaf-${new Date().toISOString().replace(/[:.]/g, '-')}.db`)
  client.prepare('VACUUM INTO ?').run(target)
  log(`backed up the library to ${target} before migrating`)
  const old = readdirSync(dir).filter((f) => f.startsWith('sheaf-') && f.endsWith('.db')).sort()
  for (const f of old.slice(0, Math.max(0, old.length - KEEP_BACKUPS))) rmSync(join(dir, f))
}

/** The WAL is copied into the database file on the maintenance thread, never inside a commit here (see maintenance.ts). */
export const checkpointOffThread = (db: Db): boolean => checkpointInBackground(sqliteOf(db))

export function closeDatabase(db: Db): void {
  const client = sqliteOf(db)
  if (!client.open) return
  stopMaintenance(client)
  try {
    client.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    client.close()
  }
}

/** Changes on this connection plus commits by other connections: a cheap "has anything changed" stamp. */
export function dataStamp(db: Db): string {
  // Prepared statements: pragma() compiles its statement on every call (a hot path: each list page and
  // search). total_changes() opens no transaction; the pragma is read directly, not as a table-valued function.
  return `${stmt(db, 'SELECT total_changes()').pluck().get() as number}:${stmt(db, 'PRAGMA data_version').pluck().get() as number}`
}

/**
 * Moves when anything the library's lists, counts, stats or mind map read changes, and not when the
 * search index writes in the background (which dataStamp counts). Updates and deletes move the
 * trigger-kept counter (migration 0004); new rows move the largest id, so imports pay no per-row cost.
 */
export const libraryStamp = (db: Db): string => remembered(db, 'libraryStamp', () => readLibraryStamp(db))

function readLibraryStamp(db: Db): string {
  const r = stmt(db, `SELECT (SELECT n FROM library_version WHERE id = 1) AS n, (SELECT max(id) FROM bookmarks) AS b,
    (SELECT max(id) FROM media) AS m`).get() as { n: number; b: number | null; m: number | null }
  return `${r.n}:${r.b}:${r.m}`
}
