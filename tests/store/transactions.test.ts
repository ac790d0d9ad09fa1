import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { closeDatabase, getSetting, openDatabase, putSetting, readTransaction, transaction, type Db } from '../../src-main/store/index.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

let dir: string
let db: Db
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sheaf-tx-'))
  db = openDatabase({ file: join(dir, 'sheaf.db') })
})
afterEach(() => {
  closeDatabase(db)
  rmSync(dir, { recursive: true, force: true })
})

describe('transactions (one runner a connection)', () => {
  it('commits what the work wrote and returns its value; a throw undoes all of it', () => {
    expect(transaction(db, () => (putSetting(db, 'a', 1), 'done'))).toBe('done')
    expect(() => transaction(db, () => {
      putSetting(db, 'a', 2)
      putSetting(db, 'b', 2)
      throw new Error('half way')
    })).toThrow('half way')
    expect([getSetting(db, 'a'), getSetting(db, 'b'), sqliteOf(db).inTransaction]).toEqual([1, null, false])
  })

  it('nests as a savepoint: an inner throw caught undoes only the inner work', () => {
    transaction(db, () => {
      putSetting(db, 'outer', 1)
      expect(() => transaction(db, () => {
        putSetting(db, 'inner', 1)
        throw new Error('inner')
      })).toThrow('inner')
      expect(readTransaction(db, () => getSetting(db, 'outer'))).toBe(1)
    })
    expect([getSetting(db, 'outer'), getSetting(db, 'inner')]).toEqual([1, null])
  })

  it('runs different work each call, and refuses work that returns a promise', () => {
    expect([readTransaction(db, () => 1), readTransaction(db, () => 2)]).toEqual([1, 2])
    expect(() => readTransaction(db, async () => 3)).toThrow(/promise/)
    expect(sqliteOf(db).inTransaction).toBe(false)
  })
})
