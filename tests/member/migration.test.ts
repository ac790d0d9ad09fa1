import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { closeDatabase, MIGRATIONS_DIR, openDatabase } from '../../src-main/store/index.ts'
import { insertBookmark, type BookmarkValues } from '../../src-main/store/queries/bookmark-writes.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

// Migration 0011 on a library that already holds posts: the member tables and indexes appear, empty, and the
// posts are untouched.
const dir = mkdtempSync(join(tmpdir(), 'sheaf-mig11-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const values = (postId: string): BookmarkValues => ({
  postId, text: `post ${postId}`, authorHandle: 'a', authorName: 'A', postCreatedAt: 0, source: 'bookmark', lang: null, conversationId: null,
  inReplyToPostId: null, urls: '[]', engagement: '{}', quoted: null, engagementScore: 0, mediaCount: 0, rawJson: '{}', contentHash: 'h',
})

describe('migration 0011 (member state)', () => {
  it('adds the member tables and indexes to an existing library', () => {
    const before = join(dir, 'drizzle-before')
    cpSync(MIGRATIONS_DIR, before, { recursive: true })
    const journal = JSON.parse(readFileSync(join(before, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> }
    journal.entries = journal.entries.filter((e) => e.tag < '0011')
    writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify(journal))
    const file = join(dir, 'sheaf.db')
    const old = openDatabase({ file, migrationsDir: before })
    const ids = ['1', '2'].map((p) => insertBookmark(old, values(p), 0))
    expect(sqliteOf(old).prepare("SELECT count(*) FROM sqlite_master WHERE name = 'member_state'").pluck().get()).toBe(0)
    closeDatabase(old)

    const db = openDatabase({ file })
    const names = sqliteOf(db).prepare("SELECT name FROM sqlite_master WHERE name LIKE 'member_state%' OR name IN ('review_days', 'bookmarks_created_at_idx', 'knowledge_analyzed_at_idx') ORDER BY name").pluck().all()
    expect(names).toEqual([
      'bookmarks_created_at_idx', 'knowledge_analyzed_at_idx', 'member_state', 'member_state_bookmark_idx', 'member_state_due_idx',
      'member_state_hidden_idx', 'member_state_read_idx', 'member_state_read_recent_idx', 'member_state_starred_at_idx', 'member_state_starred_idx',
      'member_state_version', 'member_state_version_ad', 'member_state_version_ai', 'member_state_version_au', 'review_days',
    ])
    expect(sqliteOf(db).prepare('SELECT count(*) FROM member_state').pluck().get()).toBe(0)
    expect(sqliteOf(db).prepare('SELECT id FROM bookmarks ORDER BY id').pluck().all()).toEqual(ids)
    closeDatabase(db)
  })
})
