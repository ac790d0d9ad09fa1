import { describe, expect, it } from 'vitest'
import { searchIndexQueued, searchIndexSegments } from '../../src-main/store/index.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { searchDb } from './search-db.ts'

// FTS5's automatic merging carried on merging the word index's large b-trees after every small
// write transaction (0.43 ms of CPU a post re-indexed against 0.05 without, at 20,000 posts); the
// library turns it off (migration 0016) and merges when the writes stop (index-catch-up.ts).
describe('the word index\'s b-trees', () => {
  it('are not merged after each write: small batches leave a b-tree each, and searches find the same', () => {
    const lib = searchDb()
    try {
      expect(sqliteOf(lib.db).prepare("SELECT v FROM search_fts_config WHERE k = 'automerge'").pluck().get()).toBe(0)
      for (let batch = 0; batch < 8; batch++) {
        for (let i = 0; i < 5; i++) lib.add(`post ${batch}-${i} about sourdough bread and word${batch}`)
        while (searchIndexQueued(lib.db, 64) > 0);
      }
      expect(searchIndexSegments(lib.db).length).toBeGreaterThanOrEqual(8)
      const hits = sqliteOf(lib.db).prepare("SELECT count(*) FROM search_fts WHERE search_fts MATCH 'sourdough'").pluck().get()
      expect(hits).toBe(40)
    } finally {
      lib.close()
    }
  })
})
