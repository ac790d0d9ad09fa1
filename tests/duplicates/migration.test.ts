import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDatabase, insertBookmark, MIGRATIONS_DIR, openDatabase, type BookmarkValues } from '../../src-main/store/index.ts'

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
    const journal = JSON.parse(readFileSync(join(before, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> }
    // the library as it was before 0010: later migrations are left out too (drizzle skips any older than the last applied)
    journal.entries = journal.entries.filter((e) => e.tag < '0010')
    writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify(journal))

    const file = join(dir, 'sheaf.db')
    const old = openDatabase({ file, migrationsDir: before })
    const ids = ['1', '2', '3'].map((p) => insertBookmark(old, values(p), 0))
    expect(old.$client.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'post_keys'").pluck().get()).toBe(0)
    closeDatabase(old)

    const db = openDatabase({ file })
    expect(db.$client.prepare('SELECT bookmark_id FROM post_keys_queue ORDER BY 1').pluck().all()).toEqual(ids)
    expect(db.$client.prepare('SELECT count(*) FROM post_keys').pluck().get()).toBe(0)
    expect(db.$client.prepare('SELECT count(*) FROM merged_posts').pluck().get()).toBe(0)
    closeDatabase(db)
  })
})
