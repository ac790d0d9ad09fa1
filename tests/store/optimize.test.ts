import { afterAll, describe, expect, it } from 'vitest'
import { optimize } from '../../src-main/store/queries/bookmark-writes.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { searchDb } from '../search/search-db.ts'

// After a bulk import the planner's statistics are refreshed (PRAGMA optimize's choice of tables), a
// table per turn of the event loop: in one piece it held the HTTP thread 30-45 ms after a large import.
describe('the planner\'s statistics after an import', () => {
  const lib = searchDb()
  afterAll(() => lib.close())
  const client = sqliteOf(lib.db)
  const analysed = () => client.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get()
    ? client.prepare('SELECT DISTINCT tbl FROM sqlite_stat1 ORDER BY tbl').pluck().all() as string[] : []
  const planned = (c = client) => (c.prepare('PRAGMA optimize(0xffff)').all() as Array<{ optimize: string }>).map((r) => r.optimize)
  const fill = (into: ReturnType<typeof searchDb>, n: number) => {
    for (let i = 0; i < n; i++) into.add(`post ${i} about ${i % 7 ? 'roses' : 'sourdough'}`, `author${i % 40}`)
    // Tables this connection has used are the ones optimize looks at.
    const c = sqliteOf(into.db)
    c.prepare("SELECT count(*) FROM bookmarks WHERE author_handle = 'author3'").get()
    c.prepare('SELECT count(*) FROM search_fts_queue').get()
  }

  it('are gathered for the tables PRAGMA optimize picks, one table per turn, with other work run between', async () => {
    fill(lib, 3000)
    expect(planned().length).toBeGreaterThanOrEqual(2)
    expect(analysed()).toEqual([])

    const seen: number[] = []
    let next: NodeJS.Immediate | null = null
    const watch = () => {
      seen.push(analysed().length)
      next = setImmediate(watch)
    }
    next = setImmediate(watch)
    const done = optimize(lib.db)
    // Nothing in the caller's own turn.
    expect(analysed()).toEqual([])
    await done.finally(() => clearImmediate(next!))
    expect(planned()).toEqual([])
    expect(analysed()).toContain('bookmarks')
    // Other callbacks ran between the tables: some saw part of them done.
    expect(seen.some((n) => n > 0 && n < analysed().length)).toBe(true)
  })

  it('skips what it cannot do now (a transaction open on the connection) without throwing', async () => {
    const other = searchDb()
    try {
      const c = sqliteOf(other.db)
      fill(other, 3000)
      const steps = planned(c)
      expect(steps.length).toBeGreaterThan(0)
      c.exec('BEGIN')
      try {
        await optimize(other.db)
      } finally {
        c.exec('COMMIT')
      }
      expect(planned(c)).toEqual(steps)
      other.close()
      // A closed library: nothing to do, no error.
      await expect(optimize(other.db)).resolves.toBeUndefined()
    } finally {
      if (sqliteOf(other.db).open) other.close()
    }
  })
})
