import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSearch } from '../../src-main/search/index.ts'
import { closeDatabase, openDatabase } from '../../src-main/store/index.ts'
import { insertBookmark, type BookmarkValues } from '../../src-main/store/queries/bookmark-writes.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

const values = (i: number): BookmarkValues => ({
  postId: String(9000 + i), text: `notes on pruning roses ${i}`, authorHandle: 'gardener', authorName: 'G', postCreatedAt: i, source: 'bookmark',
  lang: null, conversationId: null, inReplyToPostId: null, urls: '[]', engagement: '{}', quoted: null, engagementScore: 0, mediaCount: 0,
  rawJson: '{}', contentHash: 'h',
})

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

describe('background search indexing', () => {
  it('retries after another writer held the database, instead of stopping until the next import', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-search-retry-'))
    dirs.push(dir)
    const file = join(dir, 'sheaf.db')
    const db = openDatabase({ file })
    for (let i = 0; i < 30; i++) insertBookmark(db, values(i), 0)
    sqliteOf(db).pragma('busy_timeout = 20')
    const other = new Database(file)
    other.exec('BEGIN IMMEDIATE')
    const warnings: string[] = []
    const search = createSearch({ db, log: { warn: (m, e) => warnings.push(`${m}: ${e instanceof Error ? e.message : String(e)}`) } })
    try {
      await new Promise((r) => setTimeout(r, 300))
      const queued = () => sqliteOf(db).prepare('SELECT (SELECT count(*) FROM search_fts_queue) + (SELECT count(*) FROM search_queue)').pluck().get() as number
      expect(queued()).toBe(60)
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(/could not update the index.*locked|busy/i)
      other.exec('COMMIT')
      const deadline = Date.now() + 10_000
      while (queued() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
      expect(queued()).toBe(0)
      expect(sqliteOf(db).prepare("SELECT count(*) FROM search_fts WHERE search_fts MATCH 'pruning'").pluck().get()).toBe(30)
      expect(warnings).toHaveLength(1)
    } finally {
      await search.close()
      other.close()
      closeDatabase(db)
    }
  })
})
