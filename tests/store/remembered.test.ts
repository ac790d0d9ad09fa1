import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setImmediate as turn } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { attachDatabase, detachDatabase, sqliteOf } from '../../src-main/store/connection.ts'
import { closeDatabase, openDatabase, transaction } from '../../src-main/store/db.ts'
import { noticeCommits } from '../../src-main/store/remembered.ts'
import { getSetting, putSetting } from '../../src-main/store/queries/settings.ts'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const fileDb = () => {
  const dir = mkdtempSync(join(tmpdir(), 'sheaf-remembered-'))
  dirs.push(dir)
  const file = join(dir, 'lib.db')
  return { db: openDatabase({ file }), file }
}

describe('values remembered until the library changes', () => {
  it('sees this connection\'s write at once', () => {
    const { db } = fileDb()
    putSetting(db, 'k', 1)
    expect(getSetting(db, 'k')).toBe(1)
    putSetting(db, 'k', 2)
    expect(getSetting(db, 'k')).toBe(2)
    closeDatabase(db)
  })

  it('sees another connection\'s commit at the next request and after a turn of the event loop', async () => {
    const { db, file } = fileDb()
    putSetting(db, 'k', 1)
    expect(getSetting(db, 'k')).toBe(1)
    const other = attachDatabase(file)
    sqliteOf(other).prepare("UPDATE settings SET value = '2' WHERE key = 'k'").run()
    noticeCommits(db)
    expect(getSetting(db, 'k')).toBe(2)
    sqliteOf(other).prepare("UPDATE settings SET value = '3' WHERE key = 'k'").run()
    await turn()
    expect(getSetting(db, 'k')).toBe(3)
    detachDatabase(other)
    closeDatabase(db)
  })

  it('keeps nothing read inside a transaction that is rolled back', () => {
    const { db } = fileDb()
    putSetting(db, 'k', 1)
    expect(() => transaction(db, () => {
      putSetting(db, 'k', 2)
      expect(getSetting(db, 'k')).toBe(2)
      throw new Error('undo')
    })).toThrow('undo')
    expect(getSetting(db, 'k')).toBe(1)
    closeDatabase(db)
  })

  it('hands each caller its own object', () => {
    const { db } = fileDb()
    putSetting(db, 'o', { a: 1 })
    getSetting<{ a: number }>(db, 'o')!.a = 5
    expect(getSetting(db, 'o')).toEqual({ a: 1 })
    closeDatabase(db)
  })
})
