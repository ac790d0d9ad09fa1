import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lexicalCandidates, narrowPosts, semanticCandidates } from '../../src-main/search/candidates.ts'
import { createLocalEmbedder } from '../../src-main/search/index.ts'
import { createQueryUnderstanding } from '../../src-main/search/query-understanding.ts'
import { createSemanticIndex } from '../../src-main/search/semantic.ts'
import { searchFtsQueueSize, searchIndexQueued } from '../../src-main/store/index.ts'
import { searchDb } from './search-db.ts'

describe('candidate retrieval', () => {
  const lib = searchDb()
  let understand: ReturnType<typeof createQueryUnderstanding>
  const ids: Record<string, number> = {}
  beforeAll(() => {
    ids.indexed = lib.add('Pruning roses in early spring', 'gardener')
    ids.bread = lib.add('Sourdough bread baking with a young starter', 'baker')
    ids.k8s = lib.add('Kubernetes cluster upgrades without downtime', 'ops')
    while (searchIndexQueued(lib.db, 64) > 0);
    ids.queued = lib.add('More on pruning: roses after the first flush', 'gardener')
    ids.other = lib.add('Tomatoes want deep watering', 'gardener')
    understand = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15) })
  })
  afterAll(() => lib.close())

  it('finds posts in the word index and, by a pass over the queue, posts not indexed yet', () => {
    expect(searchFtsQueueSize(lib.db)).toBe(2)
    const q = understand('pruning roses')
    const found = lexicalCandidates(lib.db, q, narrowPosts(lib.db, q.filter)).map((c) => c.id)
    expect(found.sort()).toEqual([ids.indexed, ids.queued].sort())
    expect(searchFtsQueueSize(lib.db)).toBe(2) // found, not indexed, by the query
  })

  it('keeps a filter on the posts not indexed yet', () => {
    const q = understand('from:@ops pruning')
    expect(lexicalCandidates(lib.db, q, narrowPosts(lib.db, q.filter))).toEqual([])
  })

  it('proposes the posts nearest in meaning and leaves out the unrelated ones', async () => {
    const index = createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() })
    index.catchUp(Infinity)
    const q = understand('baking bread at home')
    const near = await semanticCandidates(lib.db, index, await index.embedQuery(q.semanticText), q, null, async () => null)
    expect(near[0]?.id).toBe(ids.bread)
    expect(near.map((n) => n.id)).not.toContain(ids.k8s)
  })
})
