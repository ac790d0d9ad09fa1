import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { createLocalEmbedder, createSearch } from '../../src-main/search/index.ts'
import { createIndexCatchUp, INDEX_BATCH, THREAD_FROM } from '../../src-main/search/index-catch-up.ts'
import { createSemanticIndex, inputHash } from '../../src-main/search/semantic.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { searchEmbeddingInputs, searchIndexQueued, searchQueueSize } from '../../src-main/store/index.ts'
import { decodeVector } from '../../src-main/store/queries/embeddings.ts'
import { SEARCH_LOCAL_MODEL } from '../../src-main/search/embedder.ts'
import { startVectorThread } from '../../src-main/search/vector-thread.ts'
import { holdWhileQueued, searchDb } from './search-db.ts'

/** Enough queued posts for the vector thread to start. */
const POSTS = THREAD_FROM + INDEX_BATCH

/** Polls (awaiting between looks) until `done()`, for up to 20 s. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000
  while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
}

/** The stored search vectors, by post, as floats. */
const storedVectors = (db: ReturnType<typeof searchDb>['db']) => new Map(
  (sqliteOf(db).prepare('SELECT bookmark_id AS id, dim, encoding, vector, content_hash AS hash FROM embeddings WHERE model = ?')
    .all(SEARCH_LOCAL_MODEL) as Array<{ id: number; dim: number; encoding: 'f32' | 'i8'; vector: Buffer; hash: string }>)
    .map((r) => [r.id, { vector: [...decodeVector(r.vector, r.dim, r.encoding)], hash: r.hash }]),
)

describe('the vector thread', () => {
  it('empties the vector queue while this thread is held, writing the vectors this thread would have made', async () => {
    const lib = searchDb()
    const ids = Array.from({ length: POSTS }, (_, i) => lib.add(`note ${i} on pruning ${i % 3 ? 'roses' : 'apple trees'} in ${i % 2 ? 'spring' : 'autumn'}`))
    const semantic = createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() })
    const indexes = createIndexCatchUp({ db: lib.db, semantic })
    try {
      searchIndexQueued(lib.db, POSTS)
      indexes.kick(0)
      await new Promise((r) => setTimeout(r, 50))
      // This thread runs no slice for up to 5 s: only another thread can empty the queue meanwhile.
      expect(holdWhileQueued(5000, () => searchQueueSize(lib.db))).toBe(0)
      // Nothing has searched with them: the index in memory has read none of them.
      await new Promise((r) => setTimeout(r, 100))
      expect(semantic.size).toBe(0)

      const embedder = createLocalEmbedder()
      const stored = storedVectors(lib.db)
      expect([...stored.keys()].sort((a, b) => a - b)).toEqual(ids)
      for (const { id, input } of searchEmbeddingInputs(lib.db, ids)) {
        expect(stored.get(id)).toEqual({ vector: [...embedder.embedNow(input)], hash: inputHash(input) })
      }
    } finally {
      indexes.close()
      lib.close()
    }
  })

  it('rewrites a changed post\'s vector, and the index in memory answers with the new one', async () => {
    const lib = searchDb()
    const ids = Array.from({ length: POSTS }, (_, i) => lib.add(`note ${i} on pruning roses`))
    const embedder = createLocalEmbedder()
    const semantic = createSemanticIndex({ db: lib.db, embedder })
    const indexes = createIndexCatchUp({ db: lib.db, semantic })
    try {
      semantic.preload()
      indexes.kick(0)
      await until(() => searchQueueSize(lib.db) === 0 && semantic.size === POSTS)
      expect(semantic.size).toBe(POSTS)

      const changed = ids[7]
      const text = 'sourdough starter feeding schedule and hydration'
      sqliteOf(lib.db).prepare('UPDATE bookmarks SET text = ? WHERE id = ?').run(text, changed)
      // More than one batch queued, so the slices hand it to the thread rather than catching up here.
      for (const id of ids.slice(0, INDEX_BATCH + 1)) sqliteOf(lib.db).prepare('INSERT OR IGNORE INTO search_queue(bookmark_id) VALUES (?)').run(id)
      indexes.kick(0)
      const [{ input }] = searchEmbeddingInputs(lib.db, [changed])
      await until(() => searchQueueSize(lib.db) === 0 && storedVectors(lib.db).get(changed)?.hash === inputHash(input))
      expect(storedVectors(lib.db).get(changed)).toEqual({ vector: [...embedder.embedNow(input)], hash: inputHash(input) })
      const nearest = async () => (await semantic.query(embedder.embedNow('feeding schedule for a starter'), 1))[0]?.id
      await until(async () => (await nearest()) === changed)
      expect(await nearest()).toBe(changed)
    } finally {
      indexes.close()
      lib.close()
    }
  })

  it('lets a search find a new post by its words while the vectors wait for the write lock, and by meaning after', async () => {
    const lib = searchDb()
    for (let i = 0; i < POSTS; i++) lib.add(`note ${i} on pruning roses`)
    const search = createSearch({ db: lib.db, encoder: null })
    const other = new Database(sqliteOf(lib.db).name)
    try {
      search.indexQueued()
      search.catchUp()
      for (let i = 0; i < POSTS; i++) lib.add(`more notes ${i} on watering tomatoes`)
      const wanted = lib.add('A kombucha second fermentation with ginger')
      // Another connection holds the write lock (the pipeline's or an import's writes do): the vectors stay queued.
      other.prepare('BEGIN IMMEDIATE').run()
      search.kick()
      await new Promise((r) => setTimeout(r, 100))
      expect(searchQueueSize(lib.db)).toBeGreaterThan(POSTS)
      const byWords = await search.search('kombucha', { limit: 5 })
      expect(byWords.results.map((r) => r.bookmark.id)).toContain(wanted)
      expect(searchQueueSize(lib.db)).toBeGreaterThan(POSTS)

      other.prepare('COMMIT').run()
      await until(() => searchQueueSize(lib.db) === 0)
      expect(searchQueueSize(lib.db)).toBe(0)
      // The index reads the thread's vectors between requests, within tens of ms of their writing.
      const byMeaning = async () => (await search.search('fermented tea with ginger', { limit: 3, mode: 'semantic' })).results.map((r) => r.bookmark.id)
      const deadline = Date.now() + 20_000
      while (!(await byMeaning()).includes(wanted) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
      expect(await byMeaning()).toContain(wanted)
    } finally {
      other.close()
      await search.close()
      lib.close()
    }
  })

  it('ends once the queue has stood empty for its idle time, after writing what was queued', async () => {
    const lib = searchDb()
    for (let i = 0; i < INDEX_BATCH * 2; i++) lib.add(`note ${i} on pruning roses`)
    let wrote = 0
    let ended = false
    const failed: string[] = []
    const thread = startVectorThread({
      db: lib.db, embedder: {}, idleExitMs: 50, onWrote: () => void wrote++, onEnded: () => { ended = true }, onFailed: (why) => void failed.push(why),
    })!
    try {
      thread.kick()
      await until(() => ended)
      expect(ended).toBe(true)
      expect(thread.running).toBe(false)
      expect(wrote).toBe(2)
      expect(searchQueueSize(lib.db)).toBe(0)
      expect(failed).toEqual([])
    } finally {
      thread.close()
      lib.close()
    }
  })
})
