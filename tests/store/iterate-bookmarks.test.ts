import { describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase, type Db } from '../../src-main/store/index.ts'
import { insertBookmark, type BookmarkValues } from '../../src-main/store/queries/bookmark-writes.ts'
import { iterateBookmarks } from '../../src-main/store/queries/bookmarks.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

const values = (postId: string, postCreatedAt: number, source: string): BookmarkValues => ({
  postId, text: `post ${postId}`, authorHandle: 'a', authorName: 'A', postCreatedAt, source,
  lang: null, conversationId: null, inReplyToPostId: null, urls: '[]', engagement: '{}', quoted: null, engagementScore: 0, mediaCount: 0,
  rawJson: '{}', contentHash: 'h',
})

/** 250 posts, many sharing a creation time, so batch edges fall inside runs of equal times. */
function library(): Db {
  const db = openDatabase({ file: ':memory:' })
  for (let i = 0; i < 250; i++) insertBookmark(db, values(String(1000 + i), Math.floor(i / 9) * 60_000, i % 3 === 0 ? 'like' : 'bookmark'), 0)
  return db
}

const walk = (db: Db, filter: { source?: string }, batch: number) => [...iterateBookmarks(db, filter, batch)]

describe('iterateBookmarks (the export walk)', () => {
  it('visits every post once, newest first with ties by id, whatever the batch size', () => {
    const db = library()
    const expected = sqliteOf(db).prepare('SELECT id FROM bookmarks ORDER BY post_created_at DESC, id DESC').pluck().all()
    for (const size of [1, 7, 9, 100, 500]) {
      const batches = walk(db, {}, size)
      expect(batches.flat().map((r) => r.id)).toEqual(expected)
      expect(batches.every((b) => b.length <= size)).toBe(true)
    }
    closeDatabase(db)
  })

  it('keeps the filter on every batch', () => {
    const db = library()
    const expected = sqliteOf(db).prepare("SELECT id FROM bookmarks WHERE source = 'like' ORDER BY post_created_at DESC, id DESC").pluck().all()
    expect(expected.length).toBe(84)
    expect(walk(db, { source: 'like' }, 10).flat().map((r) => r.id)).toEqual(expected)
    closeDatabase(db)
  })

  it('seeks the date index for each next batch instead of scanning it from the top', () => {
    const db = library()
    const prepared: string[] = []
    const client = sqliteOf(db)
    const prepare = client.prepare.bind(client)
    client.prepare = ((sql: string) => (prepared.push(sql), prepare(sql))) as typeof client.prepare
    walk(db, { source: 'like' }, 10)
    const next = prepared.filter((sql) => /post_created_at/.test(sql) && /LIMIT \?/.test(sql) && sql.includes('<'))
    expect(next).toHaveLength(1)
    const plan = (prepare(`EXPLAIN QUERY PLAN ${next[0]}`).all('like', 0, 0, 1) as { detail: string }[]).map((r) => r.detail).join(' | ')
    expect(plan).toMatch(/SEARCH b USING (COVERING )?INDEX \S+ \((source=\? AND )?post_created_at<\?\)/)
    closeDatabase(db)
  })
})
