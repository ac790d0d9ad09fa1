import { describe, expect, it } from 'vitest'
import { createLocalEmbedder } from '../../src-main/search/index.ts'
import { BACKGROUND_FROM, createIndexCatchUp, INDEX_BATCH } from '../../src-main/search/index-catch-up.ts'
import { createSemanticIndex } from '../../src-main/search/semantic.ts'
import { searchFtsQueueSize, searchLexical, searchQueueSize } from '../../src-main/store/faces/search.ts'
import { searchDb } from './search-db.ts'

const setup = (posts: number) => {
  const lib = searchDb()
  for (let i = 0; i < posts; i++) lib.add(`note ${i} on pruning roses`)
  const semantic = createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() })
  return { lib, semantic, indexes: createIndexCatchUp({ db: lib.db, semantic }) }
}

describe('index catch-up', () => {
  it('catches a backlog of one batch up before a query', () => {
    const { lib, indexes } = setup(INDEX_BATCH)
    try {
      indexes.beforeQuery()
      expect(searchFtsQueueSize(lib.db)).toBe(0)
      expect(searchQueueSize(lib.db)).toBe(0)
    } finally {
      indexes.close()
      lib.close()
    }
  })

  it('leaves a longer backlog to background slices instead of holding the query, and the slices clear it', async () => {
    const { lib, indexes } = setup(INDEX_BATCH * 6)
    try {
      indexes.beforeQuery()
      expect(searchFtsQueueSize(lib.db)).toBe(INDEX_BATCH * 6)
      const deadline = Date.now() + 20_000
      while (searchFtsQueueSize(lib.db) + searchQueueSize(lib.db) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(searchFtsQueueSize(lib.db) + searchQueueSize(lib.db)).toBe(0)
    } finally {
      indexes.close()
      lib.close()
    }
  })

  it('indexes an import-sized backlog of words on the maintenance thread, while this thread is busy', async () => {
    const { lib, indexes } = setup(BACKGROUND_FROM * 3)
    try {
      indexes.kick(0)
      await new Promise((r) => setTimeout(r, 50))
      // This thread now runs no slice for 3 s; only another thread can empty the queue meanwhile.
      const blockUntil = Date.now() + 3000
      let seen = searchFtsQueueSize(lib.db)
      while (Date.now() < blockUntil && seen > 0) seen = searchFtsQueueSize(lib.db)
      expect(seen).toBe(0)
      expect(searchLexical(lib.db, 'pruning', {}, 10).length).toBeGreaterThan(0)
    } finally {
      indexes.close()
      lib.close()
    }
  })
})
