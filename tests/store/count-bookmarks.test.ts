import { describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase } from '../../src-main/store/index.ts'
import { countBookmarks, deleteBookmarks } from '../../src-main/store/queries/bookmarks.ts'
import { filterSql, type BookmarkFilter } from '../../src-main/store/queries/bookmark-filter.ts'
import { insertBookmark, type BookmarkValues } from '../../src-main/store/queries/bookmark-writes.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

const values = (i: number): BookmarkValues => ({
  postId: String(7000 + i), text: `post ${i}`, authorHandle: i % 2 ? 'odd' : 'even', authorName: 'A', postCreatedAt: i * 1000, source: 'bookmark',
  lang: null, conversationId: null, inReplyToPostId: null, urls: '[]', engagement: '{}', quoted: null, engagementScore: 0, mediaCount: 0,
  rawJson: '{}', contentHash: 'h',
})

describe('countBookmarks', () => {
  it('counts a lone category or tag from its links, the same as probing every post, after deletes too', () => {
    const db = openDatabase({ file: ':memory:' })
    const ids = Array.from({ length: 60 }, (_, i) => insertBookmark(db, values(i), 0))
    sqliteOf(db).prepare("INSERT INTO categories (name, slug, color, created_at) VALUES ('Garden', 'garden', '#228833', 0)").run()
    const cat = sqliteOf(db).prepare("SELECT id, slug FROM categories WHERE slug = 'garden'").get() as { id: number; slug: string }
    sqliteOf(db).prepare("INSERT INTO tags (name) VALUES ('roses')").run()
    for (const id of ids.filter((_, i) => i % 3 === 0)) {
      sqliteOf(db).prepare("INSERT INTO bookmark_categories (bookmark_id, category_id, confidence, assigned_by, created_at) VALUES (?, ?, 1, 'user', 0)").run(id, cat.id)
    }
    for (const id of ids.filter((_, i) => i % 4 === 0)) {
      sqliteOf(db).prepare("INSERT INTO bookmark_tags (bookmark_id, tag_id) SELECT ?, id FROM tags WHERE name = 'roses'").run(id)
    }
    const probed = (f: BookmarkFilter) => {
      const { where, params } = filterSql(f)
      return sqliteOf(db).prepare(`SELECT count(*) FROM bookmarks b ${where}`).pluck().get(...params)
    }
    const filters: BookmarkFilter[] = [{ category: cat.slug }, { tag: 'roses' }, { category: cat.slug, author: 'even' }, { tag: 'roses', author: 'odd' }, { category: 'no-such' }]
    expect(filters.map((f) => countBookmarks(db, f))).toEqual([20, 15, 10, 0, 0])
    expect(filters.map((f) => countBookmarks(db, f))).toEqual(filters.map(probed))
    deleteBookmarks(db, ids.slice(0, 12))
    expect(filters.map((f) => countBookmarks(db, f))).toEqual([16, 12, 8, 0, 0])
    expect(filters.map((f) => countBookmarks(db, f))).toEqual(filters.map(probed))
    closeDatabase(db)
  })
})
