import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDatabase, MIGRATIONS_DIR, openDatabase } from '../../src-main/store/index.ts'
import { insertBookmark, type BookmarkValues } from '../../src-main/store/queries/bookmark-writes.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

// Migration 0010 on a library that already holds posts: the tables appear and every post is queued for
// its duplicate keys (computed in the background, library/duplicate-keys-fill.ts).
const dir = mkdtempSync(join(tmpdir(), 'sheaf-mig-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const values = (postId: string): BookmarkValues => ({
  postId, text: `post ${postId}`, authorHandle: 'a', authorName: 'A', postCreatedAt: 0, source: 'bookmark', lang: null, conversationId: null,
  inReplyToPostId: null, urls: '[]', engagement: '{}', quoted: null, engagementScore: 0, mediaCount: 0, rawJson: '{}', contentHash: 'h',
})

describe('migration 0010 (duplicates)', () => {
  it('queues the posts of an existing library for keys', () => {
    const before = join(dir, 'drizzle-before')
    cpSync(MIGRATIONS_DIR, before, { recursive: true })
    // A library from before 0010 has none of the later migrations either (drizzle skips a migration older
    // than the newest one applied, so leaving a later one in would hide 0010).
    const journal = JSON.parse(readFileSync(join(before, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ idx: number; tag: string }> }
    for (const e of journal.entries.filter((x) => x.idx >= 10)) rmSync(join(before, `${e.tag}.sql`))
    journal.entries = journal.entries.filter((e) => e.idx < 10)
    writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify(journal))

    const file = join(dir, 'sheaf.db')
    const old = openDatabase({ file, migrationsDir: before })
    const ids = ['1', '2', '3'].map((p) => insertBookmark(old, values(p), 0))
    expect(sqliteOf(old).prepare("SELECT count(*) FROM sqlite_master WHERE name = 'post_keys'").pluck().get()).toBe(0)
    closeDatabase(old)

    const db = openDatabase({ file })
    expect(sqliteOf(db).prepare('SELECT bookmark_id FROM post_keys_queue ORDER BY 1').pluck().all()).toEqual(ids)
    expect(sqliteOf(db).prepare('SELECT count(*) FROM post_keys').pluck().get()).toBe(0)
    expect(sqliteOf(db).prepare('SELECT count(*) FROM merged_posts').pluck().get()).toBe(0)
    closeDatabase(db)
  })
})
