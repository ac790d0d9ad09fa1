import { describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase, type Db } from '../../src-main/store/index.ts'
import { insertBookmark, insertBookmarkRow, maxBookmarkId, queueNewPostsForSearch, type BookmarkValues } from '../../src-main/store/queries/bookmark-writes.ts'
import { insertMedia, insertMediaRow } from '../../src-main/store/queries/media.ts'
import { topAuthors } from '../../src-main/store/queries/library-stats.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

// Migration 0007: no insert trigger queues new posts for the search index any more; whoever inserts
// does (insertBookmark per row, the importer per batch with queueNewPostsForSearch).

const values = (postId: string, authorHandle = 'a'): BookmarkValues => ({
  postId, text: `post ${postId}`, authorHandle, authorName: authorHandle.toUpperCase(), postCreatedAt: Number(postId), source: 'bookmark',
  lang: null, conversationId: null, inReplyToPostId: null, urls: '[]', engagement: '{}', quoted: null, engagementScore: 0, mediaCount: 0,
  rawJson: '{}', contentHash: 'h',
})
const photo = (altText: string | null) => ({ type: 'photo' as const, url: 'https://pbs.example/p.jpg', thumbnailUrl: 'https://pbs.example/p-s.jpg', videoUrl: null, altText, width: null, height: null, durationMs: null })
const queued = (db: Db) => ({
  fts: sqliteOf(db).prepare('SELECT bookmark_id FROM search_fts_queue ORDER BY 1').pluck().all(),
  vectors: sqliteOf(db).prepare('SELECT bookmark_id FROM search_queue ORDER BY 1').pluck().all(),
})
const drain = (db: Db) => sqliteOf(db).exec('DELETE FROM search_fts_queue; DELETE FROM search_queue')

describe('queueing new posts for search without an insert trigger', () => {
  it('insertBookmark queues its post; insertBookmarkRow leaves it to queueNewPostsForSearch', () => {
    const db = openDatabase({ file: ':memory:' })
    const a = insertBookmark(db, values('1'), 0)
    expect(queued(db)).toEqual({ fts: [a], vectors: [a] })
    drain(db)

    const before = maxBookmarkId(db)
    const b = insertBookmarkRow(db, values('2'), 0)
    const c = insertBookmarkRow(db, values('3'), 0)
    expect(queued(db)).toEqual({ fts: [], vectors: [] })
    queueNewPostsForSearch(db, before)
    queueNewPostsForSearch(db, before) // twice is harmless
    expect(queued(db)).toEqual({ fts: [b, c], vectors: [b, c] })
    closeDatabase(db)
  })

  it('a media row with alt text queues its post; one without, or a bulk row, does not', () => {
    const db = openDatabase({ file: ':memory:' })
    const id = insertBookmark(db, values('1'), 0)
    drain(db)
    insertMedia(db, id, 0, photo(null))
    insertMediaRow(db, id, 1, photo('a bulk row'))
    expect(queued(db)).toEqual({ fts: [], vectors: [] })
    insertMedia(db, id, 2, photo('a diagram of the garden'))
    expect(queued(db)).toEqual({ fts: [id], vectors: [id] })
    closeDatabase(db)
  })

  it('the insert triggers are gone and updates still re-index through theirs', () => {
    const db = openDatabase({ file: ':memory:' })
    const names = sqliteOf(db).prepare("SELECT name FROM sqlite_master WHERE type IN ('trigger', 'index') AND tbl_name IN ('bookmarks', 'media')").pluck().all()
    expect(names).not.toContain('search_bookmarks_ai')
    expect(names).not.toContain('search_media_ai')
    expect(names).not.toContain('bookmarks_author_created_idx')
    expect(names).toContain('search_bookmarks_au')
    const id = insertBookmark(db, values('1'), 0)
    drain(db)
    sqliteOf(db).prepare('UPDATE bookmarks SET text = ? WHERE id = ?').run('edited', id)
    expect(queued(db).vectors).toEqual([id])
    closeDatabase(db)
  })
})

describe('topAuthors', () => {
  it('counts handles without case (one author on X) from the lower(handle) index', () => {
    const db = openDatabase({ file: ':memory:' })
    for (const [i, h] of ['Alice', 'alice', 'ALICE', 'bob', 'bob', 'carol'].entries()) insertBookmark(db, values(String(i + 1), h), 0)
    expect(topAuthors(db, 2)).toEqual([{ handle: 'alice', name: 'ALICE', count: 3 }, { handle: 'bob', name: 'BOB', count: 2 }])
    const plan = sqliteOf(db).prepare(`EXPLAIN QUERY PLAN SELECT lower(author_handle) AS k, count(*) FROM bookmarks GROUP BY lower(author_handle)`).all()
    expect(JSON.stringify(plan)).toContain('search_bookmarks_author_lower_idx')
    closeDatabase(db)
  })
})
