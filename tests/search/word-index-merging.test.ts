import { describe, expect, it } from 'vitest'
import { createWordMemory } from '../../src-main/search/word-memory-keeper.ts'
import {
  searchIndexQueued, searchIndexSegments, searchIndexStamp, searchLexical, searchMatchCount, searchMergeInBackground,
} from '../../src-main/store/index.ts'
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

/** The word index in many b-trees: each batch of posts indexed in its own transaction. */
const fragmented = (lib: ReturnType<typeof searchDb>, batches: number, tag = '') => {
  for (let batch = 0; batch < batches; batch++) {
    for (let i = 0; i < 5; i++) lib.add(`note ${tag}${batch}-${i} on pruning ${i % 2 ? 'roses' : 'apple trees'}`)
    while (searchIndexQueued(lib.db, 64) > 0);
  }
}
const merged = (lib: ReturnType<typeof searchDb>) => new Promise<void>((resolve, reject) => {
  if (!searchMergeInBackground(lib.db, resolve)) reject(new Error('no maintenance thread'))
})
const structure = (lib: ReturnType<typeof searchDb>) =>
  (sqliteOf(lib.db).prepare('SELECT block FROM search_fts_data WHERE id = 10').pluck().get() as Buffer).toString('hex')

describe('the word index\'s stamp across merges', () => {
  it('stays where it was through a merge, which changes no answer, and moves with every write, between merges too', async () => {
    const lib = searchDb()
    try {
      fragmented(lib, 24)
      const stamp = searchIndexStamp(lib.db)
      const answer = searchLexical(lib.db, 'pruning OR roses', {}, 200)
      const before = structure(lib)
      await merged(lib)
      expect(searchIndexSegments(lib.db)).toHaveLength(1)
      expect(structure(lib)).not.toBe(before)
      expect(searchIndexStamp(lib.db)).toBe(stamp)
      expect(searchLexical(lib.db, 'pruning OR roses', {}, 200)).toEqual(answer)

      // A write after the merge moves it; so does each write before the next merge, which keeps the last.
      lib.add('a post on quinces')
      while (searchIndexQueued(lib.db, 64) > 0);
      const written = searchIndexStamp(lib.db)
      expect(written).not.toBe(stamp)
      fragmented(lib, 20, 'b')
      const last = searchIndexStamp(lib.db)
      expect(last).not.toBe(written)
      await merged(lib)
      expect(searchIndexSegments(lib.db)).toHaveLength(1)
      expect(searchIndexStamp(lib.db)).toBe(last)
      // A post deleted right after a merge (a tombstone in the merged b-tree, no new one) moves it too.
      sqliteOf(lib.db).prepare('DELETE FROM bookmarks WHERE id = 3').run()
      expect(searchIndexSegments(lib.db)).toHaveLength(1)
      expect(searchIndexStamp(lib.db)).not.toBe(last)
    } finally {
      lib.close()
    }
  })

  it('keeps the word index in memory current through a merge: no copy is read again', async () => {
    const lib = searchDb()
    const words = createWordMemory({ db: lib.db, quietMs: 600_000, endedMs: 50 })
    try {
      fragmented(lib, 24)
      words.writesEnded()
      const deadline = Date.now() + 10_000
      while (words.current() === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      const copy = words.current()
      expect(copy).not.toBeNull()
      await merged(lib)
      expect(searchIndexSegments(lib.db)).toHaveLength(1)
      expect(words.current()).toBe(copy)
      expect(copy!.count('"roses"', 1000)).toBe(searchMatchCount(lib.db, '"roses"', 1000))
      await new Promise((r) => setTimeout(r, 300))
      expect(words.built).toBe(1)
    } finally {
      await words.close()
      lib.close()
    }
  })
})
