import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLocalEmbedder, createSearch } from '../../src-main/search/index.ts'
import { BACKGROUND_FROM, createIndexCatchUp, INDEX_BATCH, worthMerging, type IndexCatchUp } from '../../src-main/search/index-catch-up.ts'
import { createSemanticIndex } from '../../src-main/search/semantic.ts'
import { searchFtsQueueSize, searchIndexQueued, searchIndexSegments, searchLexical, searchQueueSize } from '../../src-main/store/index.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { holdWhileQueued, searchDb } from './search-db.ts'

/** A library of `posts` queued posts and its catch-up, closed after `fn` whatever it does. */
async function withBacklog(posts: number, fn: (lib: ReturnType<typeof searchDb>, indexes: IndexCatchUp) => unknown): Promise<void> {
  const lib = searchDb()
  for (let i = 0; i < posts; i++) lib.add(`note ${i} on pruning roses`)
  const semantic = createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() })
  const indexes = createIndexCatchUp({ db: lib.db, semantic })
  try {
    await fn(lib, indexes)
  } finally {
    indexes.close()
    lib.close()
  }
}

describe('index catch-up', () => {
  it('catches a backlog of one batch up before a query', () =>
    withBacklog(INDEX_BATCH, (lib, indexes) => {
      expect(indexes.beforeQuery()).toBe(true)
      expect(searchFtsQueueSize(lib.db)).toBe(0)
      expect(searchQueueSize(lib.db)).toBe(0)
      // Nothing queued now: the query is told it need not look for posts the word index lacks.
      expect(indexes.beforeQuery()).toBe(false)
      expect(indexes.beforeQuery()).toBe(false)
      // A post written here, then one queued by another connection: each is seen by the next query.
      lib.add('one more note on roses')
      expect(indexes.beforeQuery()).toBe(true)
      expect(indexes.beforeQuery()).toBe(false)
      const other = new Database(sqliteOf(lib.db).name)
      try {
        other.prepare('INSERT INTO search_fts_queue(bookmark_id) SELECT max(id) FROM bookmarks').run()
      } finally {
        other.close()
      }
      expect(searchFtsQueueSize(lib.db)).toBe(1)
      expect(indexes.beforeQuery()).toBe(true)
    }))

  it('leaves a longer backlog to background slices instead of holding the query, and the slices clear it', () =>
    withBacklog(INDEX_BATCH * 6, async (lib, indexes) => {
      indexes.beforeQuery()
      expect(searchFtsQueueSize(lib.db)).toBe(INDEX_BATCH * 6)
      const deadline = Date.now() + 20_000
      while (searchFtsQueueSize(lib.db) + searchQueueSize(lib.db) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(searchFtsQueueSize(lib.db) + searchQueueSize(lib.db)).toBe(0)
    }))

  it('indexes an import-sized backlog of words on the maintenance thread, while this thread is busy', () =>
    withBacklog(BACKGROUND_FROM * 3, async (lib, indexes) => {
      indexes.kick(0)
      await new Promise((r) => setTimeout(r, 50))
      // This thread now runs no slice for 3 s; only another thread can empty the queue meanwhile.
      expect(holdWhileQueued(3000, () => searchFtsQueueSize(lib.db))).toBe(0)
      expect(searchLexical(lib.db, 'pruning', {}, 10).length).toBeGreaterThan(0)
    }))

  it('indexes a long backlog on this thread while an import holds its write transaction open here', async () => {
    const lib = searchDb()
    const client = sqliteOf(lib.db)
    const indexes = createIndexCatchUp({ db: lib.db, semantic: createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() }) })
    try {
      // As an import does: one transaction across awaits, its posts queued inside it (invisible to other connections).
      client.prepare('BEGIN IMMEDIATE').run()
      for (let i = 0; i < BACKGROUND_FROM * 3; i++) lib.add(`note ${i} on pruning roses`)
      indexes.kick(0)
      const deadline = Date.now() + 20_000
      while (searchFtsQueueSize(lib.db) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(searchFtsQueueSize(lib.db)).toBe(0)
      client.prepare('COMMIT').run()
      expect(searchLexical(lib.db, 'pruning', {}, 10).length).toBeGreaterThan(0)
    } finally {
      indexes.close()
      lib.close()
    }
  })

  it('leaves the vectors queued, without waiting, while another connection writes, and catches them up after', () =>
    withBacklog(INDEX_BATCH * 3, async (lib, indexes) => {
      indexes.indexQueued(Infinity)
      const semantic = createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() })
      const warned: unknown[] = []
      const catchUp = createIndexCatchUp({ db: lib.db, semantic, log: { warn: (m) => void warned.push(m) } })
      // The maintenance thread's word batches hold the lock like this (its own connection).
      const other = new Database(sqliteOf(lib.db).name)
      try {
        other.prepare('BEGIN IMMEDIATE').run()
        // Before: SQLite's busy handler held this thread for the whole 5 s time-out, then SQLITE_BUSY.
        expect(semantic.catchUp(Infinity, { ifFree: true })).toBe(INDEX_BATCH * 3)
        catchUp.kick(0)
        await new Promise((r) => setTimeout(r, 100))
        expect(searchQueueSize(lib.db)).toBe(INDEX_BATCH * 3)
        other.prepare('COMMIT').run()
        const deadline = Date.now() + 20_000
        while (searchQueueSize(lib.db) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
        expect(searchQueueSize(lib.db)).toBe(0)
        expect(warned).toEqual([])
      } finally {
        catchUp.close()
        other.close()
      }
    }))

  it('merges a word index written in many transactions into one b-tree once it stands unwritten, answering the same', async () => {
    const lib = searchDb()
    // Each indexing transaction adds a b-tree; FTS5 merges them only part of the way.
    for (let round = 0; round < 24; round++) {
      for (let i = 0; i < 5; i++) lib.add(`note ${round}-${i} on pruning ${i % 2 ? 'roses' : 'apple trees'}`)
      searchIndexQueued(lib.db, INDEX_BATCH)
    }
    const before = searchIndexSegments(lib.db)
    expect(before.length).toBeGreaterThan(1)
    expect(worthMerging(before)).toBe(true)
    const answer = searchLexical(lib.db, 'pruning OR roses', {}, 200)
    const indexes = createIndexCatchUp({ db: lib.db, semantic: createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() }), mergeCheckMs: 30 })
    try {
      const deadline = Date.now() + 10_000
      while (searchIndexSegments(lib.db).length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(searchIndexSegments(lib.db)).toHaveLength(1)
      expect(searchLexical(lib.db, 'pruning OR roses', {}, 200)).toEqual(answer)
    } finally {
      indexes.close()
      lib.close()
    }
  })

  it('merges the word index as soon as its queue is empty once the writes have ended, not after a quiet spell', async () => {
    const lib = searchDb()
    for (let round = 0; round < 24; round++) {
      for (let i = 0; i < 5; i++) lib.add(`note ${round}-${i} on pruning ${i % 2 ? 'roses' : 'apple trees'}`)
      searchIndexQueued(lib.db, INDEX_BATCH)
    }
    lib.add('the last post, still queued for its words')
    const answer = () => searchLexical(lib.db, 'pruning OR roses OR queued', {}, 200)
    // A quiet spell longer than the test: only writesEnded() can start the merge.
    const indexes = createIndexCatchUp({ db: lib.db, semantic: createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() }), mergeCheckMs: 3_600_000 })
    try {
      indexes.writesEnded()
      await new Promise((r) => setTimeout(r, 1500))
      // Not while a post waits for the word index (indexing it would add a b-tree after the merge).
      expect(searchFtsQueueSize(lib.db)).toBe(1)
      expect(searchIndexSegments(lib.db).length).toBeGreaterThan(1)
      indexes.indexQueued(Infinity)
      const before = answer()
      expect(worthMerging(searchIndexSegments(lib.db))).toBe(true)
      const deadline = Date.now() + 10_000
      while (searchIndexSegments(lib.db).length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(searchIndexSegments(lib.db)).toHaveLength(1)
      expect(answer()).toEqual(before)
    } finally {
      indexes.close()
      lib.close()
    }
  })

  it('merges, once started, a word index a library was closed with in many b-trees, without any write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-merge-at-start-'))
    const lib = searchDb({ dir })
    try {
      for (let round = 0; round < 24; round++) {
        for (let i = 0; i < 5; i++) lib.add(`note ${round}-${i} on pruning ${i % 2 ? 'roses' : 'apple trees'}`)
        searchIndexQueued(lib.db, INDEX_BATCH)
      }
      expect(worthMerging(searchIndexSegments(lib.db))).toBe(true)
      lib.close()
      const again = searchDb({ dir })
      const search = createSearch({ db: again.db, encoder: null })
      try {
        const deadline = Date.now() + 10_000
        while (searchIndexSegments(again.db).length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
        expect(searchIndexSegments(again.db)).toHaveLength(1)
      } finally {
        await search.close()
        again.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('leaves an index of one b-tree, or a few small ones beside a large one, as it is', () => {
    expect(worthMerging([500])).toBe(false)
    expect(worthMerging([800, 40, 30, 20])).toBe(false)
    expect(worthMerging([800, 60, 40])).toBe(true)
    expect(worthMerging([])).toBe(false)
  })
})
