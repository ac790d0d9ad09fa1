import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { startKeyFill } from '../../src-main/library/duplicate-keys-fill.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { searchDb } from '../search/search-db.ts'

const queued = (client: Database.Database) => client.prepare('SELECT count(*) FROM post_keys_queue').pluck().get() as number

describe('duplicate keys while another connection holds the write lock', () => {
  it('waits for the lock to be released instead of failing the process, then keys every queued post', async () => {
    const lib = searchDb()
    const client = sqliteOf(lib.db)
    const other = new Database(client.name)
    try {
      for (let i = 0; i < 300; i++) lib.add(`post number ${i} about pruning roses`)
      client.prepare('INSERT OR IGNORE INTO post_keys_queue(bookmark_id) SELECT id FROM bookmarks').run()
      expect(queued(client)).toBe(300)
      // Another process (the command line, a checkpoint) holds the lock past this connection's busy time-out.
      client.pragma('busy_timeout = 50')
      other.prepare('BEGIN IMMEDIATE').run()
      const fill = startKeyFill({ db: lib.db, everyMs: 1, idleMs: 20 })
      try {
        await new Promise((r) => setTimeout(r, 300))
        expect(queued(client)).toBe(300)
        other.prepare('COMMIT').run()
        const deadline = Date.now() + 10_000
        while (queued(client) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
        expect(queued(client)).toBe(0)
      } finally {
        fill.stop()
      }
    } finally {
      other.close()
      lib.close()
    }
  })
})

describe('duplicate keys while requests are being answered', () => {
  it('waits between chunks what its pacer says (a tenth of a busy thread at most)', async () => {
    const lib = searchDb()
    const client = sqliteOf(lib.db)
    try {
      for (let i = 0; i < 600; i++) lib.add(`post number ${i} about pruning roses`)
      client.prepare('INSERT OR IGNORE INTO post_keys_queue(bookmark_id) SELECT id FROM bookmarks').run()
      const slices: number[] = []
      // A thread this busy: each chunk is followed by a long pause.
      const pacer = { slice: <T>(work: () => T) => { const value = work(); slices.push(queued(client)); return { value, pauseMs: 60_000 } } }
      const fill = startKeyFill({ db: lib.db, everyMs: 1, idleMs: 20, pacer })
      try {
        await new Promise((r) => setTimeout(r, 300))
        // One chunk, then the pause.
        expect(slices).toHaveLength(1)
        expect(slices[0]).toBeGreaterThan(0)
        expect(slices[0]).toBeLessThan(600)
        expect(queued(client)).toBe(slices[0])
      } finally {
        fill.stop()
      }
    } finally {
      lib.close()
    }
  })
})
