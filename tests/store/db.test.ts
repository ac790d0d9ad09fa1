import Database from 'better-sqlite3'
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MIGRATIONS_DIR, closeDatabase, openDatabase } from '../../src-main/store/index.ts'
import { insertUser, listUsers } from '../../src-main/store/queries/accounts.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sheaf-store-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** A copy of the real migrations plus one more, as a new release would bring. */
function migrationsWithOneMore(n: number): string {
  const copy = join(dir, `migrations-${n}`)
  cpSync(MIGRATIONS_DIR, copy, { recursive: true })
  const journalFile = join(copy, 'meta/_journal.json')
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Record<string, unknown>[] }
  const last = Math.max(...journal.entries.map((e) => Number(e.when)))
  for (let i = 1; i <= n; i++) {
    const tag = `9${String(i).padStart(3, '0')}_test_probe_${i}`
    writeFileSync(join(copy, `${tag}.sql`), `CREATE TABLE probe_${i} (id integer);`)
    journal.entries.push({ idx: journal.entries.length, version: '6', when: last + i * 1000, tag, breakpoints: true })
  }
  writeFileSync(journalFile, JSON.stringify(journal))
  return copy
}

describe('openDatabase', () => {
  it('creates the file with WAL, foreign keys and the schema; no backup for a new library', () => {
    const file = join(dir, 'lib', 'sheaf.db')
    const db = openDatabase({ file })
    try {
      expect(sqliteOf(db).pragma('journal_mode', { simple: true })).toBe('wal')
      expect(sqliteOf(db).pragma('foreign_keys', { simple: true })).toBe(1)
      insertUser(db, { email: 'a@example.com', name: 'A', role: 'admin', passwordHash: 'x' })
      expect(listUsers(db)).toHaveLength(1)
    } finally {
      closeDatabase(db)
    }
    expect(existsSync(join(dir, 'lib', 'backups'))).toBe(false)
  })

  it('backs up an existing library before migrating it, and keeps the last three backups', () => {
    const file = join(dir, 'sheaf.db')
    const first = openDatabase({ file })
    insertUser(first, { email: 'keep@example.com', name: 'K', role: 'admin', passwordHash: 'x' })
    closeDatabase(first)

    const logs: string[] = []
    const again = openDatabase({ file, log: (m) => logs.push(m) }) // nothing pending: no backup
    closeDatabase(again)
    expect(logs).toEqual([])

    for (let n = 1; n <= 4; n++) {
      const db = openDatabase({ file, migrationsDir: migrationsWithOneMore(n), log: (m) => logs.push(m) })
      expect(sqliteOf(db).prepare(`select count(*) as c from probe_${n}`).get()).toEqual({ c: 0 })
      closeDatabase(db)
    }
    expect(logs).toHaveLength(4)
    expect(logs[0]).toMatch(/^backed up the library to .*backups\/sheaf-.*\.db before migrating$/)
    const backups = readdirSync(join(dir, 'backups')).sort()
    expect(backups).toHaveLength(3)
    const copy = new Database(join(dir, 'backups', backups[0]), { readonly: true })
    try {
      expect(copy.prepare('select email from users').all()).toEqual([{ email: 'keep@example.com' }])
    } finally {
      copy.close()
    }
  })
})
