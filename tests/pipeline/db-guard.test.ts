import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeWhenFree } from '../../src-main/pipeline/context.ts'
import { closeDatabase, openDatabase, type Db } from '../../src-main/store/index.ts'
import { sqliteOf, transactionIfFree } from '../../src-main/store/db.ts'

let dir: string
let db: Db
let other: Database.Database
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sheaf-guard-'))
  const file = join(dir, 'sheaf.db')
  db = openDatabase({ file })
  sqliteOf(db).exec('CREATE TABLE probe (n integer)')
  // Another connection to the same file, as the maintenance thread holds one.
  other = new Database(file)
})
afterEach(() => {
  if (other.inTransaction) other.exec('ROLLBACK')
  other.close()
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

const rows = () => sqliteOf(db).prepare('SELECT count(*) FROM probe').pluck().get() as number

describe('writing while another connection holds the write lock', () => {
  it('transactionIfFree does nothing and says so while the lock is taken, and writes once it is free', () => {
    other.exec('BEGIN IMMEDIATE')
    const started = performance.now()
    expect(transactionIfFree(db, () => sqliteOf(db).exec('INSERT INTO probe VALUES (1)'))).toBeNull()
    // It did not wait out the connection's busy timeout (5 s).
    expect(performance.now() - started).toBeLessThan(1000)
    expect(rows()).toBe(0)
    expect(sqliteOf(db).pragma('busy_timeout', { simple: true })).toBe(5000)
    other.exec('COMMIT')
    expect(transactionIfFree(db, () => sqliteOf(db).prepare('INSERT INTO probe VALUES (1)').run().changes)).toEqual({ value: 1 })
    expect(rows()).toBe(1)
  })

  it('writeWhenFree keeps the event loop free while it waits, then writes', async () => {
    other.exec('BEGIN IMMEDIATE')
    let ticks = 0
    const ticker = setInterval(() => ticks++, 5)
    const release = setTimeout(() => other.exec('COMMIT'), 200)
    try {
      const written = await writeWhenFree(db, () => {
        sqliteOf(db).exec('INSERT INTO probe VALUES (1)')
        return 'done'
      })
      expect(written).toBe('done')
      expect(rows()).toBe(1)
      // Blocked in SQLite's busy handler, no timer would have run until the other connection let go.
      expect(ticks).toBeGreaterThan(5)
    } finally {
      clearInterval(ticker)
      clearTimeout(release)
    }
  })
})
