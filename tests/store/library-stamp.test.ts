import { describe, expect, it } from 'vitest'
import { openDatabase } from '../../src-main/store/index.ts'
import { insertBookmark, type BookmarkValues } from '../../src-main/store/queries/bookmark-writes.ts'
import { dataStamp, libraryStamp, sqliteOf } from '../../src-main/store/db.ts'

const values = (postId: string): BookmarkValues => ({
  postId, text: `post ${postId}`, authorHandle: 'a', authorName: 'A', postCreatedAt: 1, source: 'bookmark', lang: null,
  conversationId: null, inReplyToPostId: null, urls: '[]', engagement: '{}', quoted: null, engagementScore: 0, mediaCount: 0,
  rawJson: '{}', contentHash: 'h',
})

describe('libraryStamp', () => {
  it('moves with library changes and not with search index writes', () => {
    const db = openDatabase({ file: ':memory:' })
    const c = sqliteOf(db)
    const s0 = libraryStamp(db)
    const id = insertBookmark(db, values('1'), 0)
    const s1 = libraryStamp(db)
    expect(s1).not.toBe(s0)

    const d0 = dataStamp(db)
    c.prepare('DELETE FROM search_fts_queue').run()
    c.prepare('DELETE FROM search_queue').run()
    expect(dataStamp(db)).not.toBe(d0)
    expect(libraryStamp(db)).toBe(s1)

    c.prepare("INSERT INTO categories (name, slug, color, position, created_at) VALUES ('X', 'x', '#000', 0, 0)").run()
    const s2 = libraryStamp(db)
    expect(s2).not.toBe(s1)
    const cid = c.prepare("SELECT id FROM categories WHERE slug = 'x'").pluck().get()
    c.prepare("INSERT INTO bookmark_categories (bookmark_id, category_id, confidence, assigned_by, created_at) VALUES (?, ?, 1, 'user', 0)").run(id, cid)
    const s3 = libraryStamp(db)
    expect(s3).not.toBe(s2)
    c.prepare('UPDATE bookmarks SET text = ? WHERE id = ?').run('changed', id)
    const s4 = libraryStamp(db)
    expect(s4).not.toBe(s3)
    c.prepare('DELETE FROM bookmarks WHERE id = ?').run(id)
    expect(libraryStamp(db)).not.toBe(s4)
  })
})
