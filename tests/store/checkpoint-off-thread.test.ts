import { statSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { checkpointOffThread, transaction } from '../../src-main/store/index.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { searchDb } from '../search/search-db.ts'

// A commit that takes the WAL past 1,000 pages ran SQLite's checkpoint inside itself, on the HTTP
// thread (a 100-post key-fill commit took 107 ms in bench/load.ts). With checkpointOffThread the
// database file is written by the maintenance thread, after the commit.

const fileSize = (db: ReturnType<typeof searchDb>['db']) => statSync(sqliteOf(db).name).size
const bulkWrite = (lib: ReturnType<typeof searchDb>) => transaction(lib.db, () => {
  const client = sqliteOf(lib.db)
  client.exec('CREATE TABLE IF NOT EXISTS ballast (x BLOB)')
  const add = client.prepare('INSERT INTO ballast VALUES (randomblob(4000))')
  for (let i = 0; i < 1500; i++) add.run() // ~1,500 pages: past the automatic checkpoint's 1,000
})

describe('the WAL checkpoint, off the connection\'s own thread', () => {
  it('a large commit leaves the database file to the maintenance thread, which copies the WAL soon after', async () => {
    const lib = searchDb()
    try {
      expect(checkpointOffThread(lib.db)).toBe(true)
      const before = fileSize(lib.db)
      bulkWrite(lib)
      // Nothing was copied inside the commit.
      expect(fileSize(lib.db)).toBe(before)
      // The copy writes the file a page at a time: wait for all of it, not for its first pages.
      const deadline = Date.now() + 10_000
      while (fileSize(lib.db) <= before + 4_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
      expect(fileSize(lib.db)).toBeGreaterThan(before + 4_000_000)
    } finally {
      lib.close()
    }
  })

  it('without it, the commit itself copies the WAL into the file (what the HTTP thread paid)', () => {
    const lib = searchDb()
    try {
      const before = fileSize(lib.db)
      bulkWrite(lib)
      expect(fileSize(lib.db)).toBeGreaterThan(before + 4_000_000)
    } finally {
      lib.close()
    }
  })
})
