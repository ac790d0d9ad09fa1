import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDatabase, MIGRATIONS_DIR, openDatabase } from '../../src-main/store/index.ts'
import { insertBookmark, type BookmarkValues } from '../../src-main/store/queries/bookmark-writes.ts'
import { signedIn } from '../support/client.ts'
import { startTestServer } from '../support/server.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

// A library from before migration 0012 holds a self-reply chain: after the upgrade, the next start assembles it.
const dir = mkdtempSync(join(tmpdir(), 'sheaf-mig12-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const values = (postId: string, replyTo: string | null, at: number): BookmarkValues => ({
  postId, text: `post ${postId}`, authorHandle: 'ada', authorName: 'Ada', postCreatedAt: at, source: 'own_post', lang: null, conversationId: null,
  inReplyToPostId: replyTo, urls: '[]', engagement: '{}', quoted: null, engagementScore: 0, mediaCount: 0, rawJson: '{}', contentHash: 'h',
})

describe('migration 0012 (threads)', () => {
  it('adds the thread columns, and the next start assembles the threads a library already holds', async () => {
    const before = join(dir, 'drizzle-before')
    cpSync(MIGRATIONS_DIR, before, { recursive: true })
    const journal = JSON.parse(readFileSync(join(before, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> }
    const later = journal.entries.filter((e) => e.tag >= '0012')
    journal.entries = journal.entries.filter((e) => e.tag < '0012')
    writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify(journal))
    for (const e of later) rmSync(join(before, `${e.tag}.sql`))

    const dataDir = join(dir, 'data')
    const file = join(dataDir, 'sheaf.db')
    mkdirSync(dataDir, { recursive: true })
    const old = openDatabase({ file, migrationsDir: before })
    // inserted newest first, so ids do not give the order away
    insertBookmark(old, values('3', '2', 3000), 0)
    insertBookmark(old, values('2', '1', 2000), 0)
    insertBookmark(old, values('1', null, 1000), 0)
    expect(sqliteOf(old).prepare("SELECT count(*) FROM sqlite_master WHERE name = 'thread_parts'").pluck().get()).toBe(0)
    closeDatabase(old)

    const t = await startTestServer({ dataDir })
    try {
      const viewer = await signedIn(t, 'viewer')
      const list = (await viewer.get('/api/bookmarks?sort=oldest')).body.bookmarks
      expect(list.map((b: any) => [b.postId, b.threadPosition, b.threadSize])).toEqual([['1', 1, 3], ['2', 2, 3], ['3', 3, 3]])
    } finally {
      await t.close()
    }
  })
})
