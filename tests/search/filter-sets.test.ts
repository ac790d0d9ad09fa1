import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fuse, lexicalCandidates, semanticCandidates } from '../../src-main/search/candidates.ts'
import { broadPosts, postSetOf, STEADY_MS } from '../../src-main/search/filter-sets.ts'
import { createLocalEmbedder } from '../../src-main/search/index.ts'
import { createQueryUnderstanding } from '../../src-main/search/query-understanding.ts'
import { createSemanticIndex, type SemanticIndex } from '../../src-main/search/semantic.ts'
import { libraryStamp, searchFilteredIds, searchIndexQueued } from '../../src-main/store/index.ts'
import { beginWrite } from '../../src-main/store/queries/bookmark-writes.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { searchDb } from './search-db.ts'

describe('a post set (a bitmap by id)', () => {
  it('holds the ids given, once each, and no others', () => {
    const set = postSetOf([5, 64, 3, 64, 31, 32])
    expect(set.size).toBe(5)
    expect([...set]).toEqual([3, 5, 31, 32, 64])
    expect([0, 4, 33, 63, 65, 10_000].some((id) => set.has(id))).toBe(false)
    expect([3, 5, 31, 32, 64].every((id) => set.has(id))).toBe(true)
  })
})

describe('broad filters answered from memory', () => {
  const lib = searchDb()
  const in2023 = Date.UTC(2023, 5, 1)
  let understand: ReturnType<typeof createQueryUnderstanding>
  let index: SemanticIndex
  const texts = [
    'Pruning roses in early spring', 'Roses want deep watering in summer', 'Climbing roses on a south wall', 'Roses and aphids: what works',
    'Sourdough bread with a young starter', 'Roses benchmarks: which variety flowers longest', 'Deadheading roses through the season', 'Kubernetes upgrades without downtime',
  ]
  const ids: number[] = []
  /** The clock of broadPosts, moved on by hand: each step is a search made once the library stood still long enough. */
  let now = 0
  const later = () => (now += STEADY_MS + 1)
  const setOf = (text: string) => broadPosts(lib.db, understand(text).filter, later())
  /** A set from memory for the filter: the library seen standing still by one search, then built by the next. */
  const warmed = (text: string) => {
    setOf(text)
    const set = setOf(text)
    expect(set).not.toBeNull()
    return set!
  }
  const words = (text: string, set: ReturnType<typeof broadPosts>) => lexicalCandidates(lib.db, understand(text), null, false, { broad: set }).map((c) => c.id)
  const meaning = async (text: string, set: ReturnType<typeof broadPosts>) => {
    const q = understand(text)
    return (await semanticCandidates(lib.db, index, await index.embedQuery(q.semanticText), q, null, async () => null, set)).map((c) => c.id)
  }
  const dateOf = (id: number, at: number) => sqliteOf(lib.db).prepare('UPDATE bookmarks SET post_created_at = ? WHERE id = ?').run(at, id)

  beforeAll(() => {
    for (const t of texts) ids.push(lib.add(t, 'gardener'))
    for (const id of ids.slice(0, 4)) dateOf(id, in2023)
    while (searchIndexQueued(lib.db, 64) > 0);
    index = createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() })
    index.catchUp(Infinity)
    understand = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15) })
  })
  afterAll(() => lib.close())

  it('holds the posts the SQL filter passes, and answers both halves as the SQL path does', async () => {
    for (const text of ['roses in 2023', 'roses -benchmarks']) {
      const set = warmed(text)
      expect([...set]).toEqual(searchFilteredIds(lib.db, understand(text).filter).sort((a, b) => a - b))
      expect(words(text, set)).toEqual(words(text, null))
      expect(await meaning(text, set)).toEqual(await meaning(text, null))
    }
    expect(words('roses in 2023', warmed('roses in 2023')).sort()).toEqual(ids.slice(0, 4).sort())
  })

  it('is built only once searches have seen the library stand still, and never inside a write transaction', () => {
    const f = understand('roses last year').filter
    dateOf(ids[7], Date.UTC(2024, 3, 1))
    expect(broadPosts(lib.db, f, now)).toBeNull()
    expect(broadPosts(lib.db, f, now + STEADY_MS - 1)).toBeNull()
    const write = beginWrite(lib.db)
    expect(broadPosts(lib.db, f, (now += STEADY_MS + 1))).toBeNull()
    write.rollback()
    expect(broadPosts(lib.db, f, now)).not.toBeNull()
    // Asked once, a filter is left to SQL even while the library stands still; a quoted phrase always is.
    expect(broadPosts(lib.db, understand('roses has:image').filter, (now += STEADY_MS + 1))).toBeNull()
    const phrase = understand('"deep watering" roses').filter
    expect(phrase.mustMatch?.length).toBe(1)
    expect([broadPosts(lib.db, phrase, later()), broadPosts(lib.db, phrase, later())]).toEqual([null, null])
  })

  it('is left at once when a post is added or edited so that it passes or fails the filter', async () => {
    warmed('roses in 2023')
    const added = lib.add('Roses pruned hard after the first frost', 'gardener')
    dateOf(added, in2023)
    while (searchIndexQueued(lib.db, 64) > 0);
    index.catchUp(Infinity)
    dateOf(ids[1], Date.UTC(2024, 2, 1))
    const set = setOf('roses in 2023')
    expect(words('roses in 2023', set)).toContain(added)
    expect(words('roses in 2023', set)).not.toContain(ids[1])
    expect(await meaning('roses in 2023', set)).toContain(added)
    expect(await meaning('roses in 2023', set)).not.toContain(ids[1])
    // Built again once the library stands still, with the change.
    const again = warmed('roses in 2023')
    expect(again.has(added) && !again.has(ids[1])).toBe(true)
  })

  it('follows the word index for a minus word (a queued post indexed moves no library stamp)', async () => {
    const queued = lib.add('Roses benchmarks again: the longest flowering', 'gardener')
    index.catchUp(Infinity)
    // Not in the word index yet: nothing says it holds the word, so it passes.
    expect(warmed('roses -benchmarks').has(queued)).toBe(true)
    const stamp = libraryStamp(lib.db)
    while (searchIndexQueued(lib.db, 64) > 0);
    expect(libraryStamp(lib.db)).toBe(stamp)
    const set = setOf('roses -benchmarks')
    expect(await meaning('roses -benchmarks', set)).not.toContain(queued)
    expect(await meaning('roses -benchmarks', set)).toEqual(await meaning('roses -benchmarks', null))
  })
})

/**
 * A year filter that few of the nearest 1,000 posts pass (candidates.ts checks that many against it
 * before the filter's posts are in memory): its nearest 200 lie further out. Asked before the set is built
 * and after, the question must propose the same posts; the first answer held only the few passing of the 1,000.
 */
describe('a date question asked before and after its posts are kept in memory', () => {
  const lib = searchDb()
  let understand: ReturnType<typeof createQueryUnderstanding>
  let index: SemanticIndex
  let now = 0
  const text = 'roses in 2023'
  const in2023: number[] = []

  beforeAll(async () => {
    const dateOf = (id: number, at: number) => sqliteOf(lib.db).prepare('UPDATE bookmarks SET post_created_at = ? WHERE id = ?').run(at, id)
    // Nearest first (equal vectors rank by row): 60 of 2023, 1,000 of 2024, then 200 more of 2023 a little further out.
    for (let i = 0; i < 60; i++) in2023.push(lib.add('Pruning roses in the rose garden', 'gardener'))
    for (let i = 0; i < 1000; i++) dateOf(lib.add('Pruning roses in the rose garden', 'gardener'), Date.UTC(2024, 4, 1))
    for (let i = 0; i < 200; i++) in2023.push(lib.add('Pruning roses in the rose garden, then mulch', 'gardener'))
    for (const id of in2023) dateOf(id, Date.UTC(2023, 4, 1))
    while (searchIndexQueued(lib.db, 256) > 0);
    index = createSemanticIndex({ db: lib.db, embedder: createLocalEmbedder() })
    index.catchUp(Infinity)
    index.preload()
    while (index.loading) await new Promise((r) => setImmediate(r))
    understand = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15) })
  })
  afterAll(() => lib.close())

  /** The question answered as the server does, with the filter's posts from memory when broadPosts has built them. */
  const ask = async () => {
    const q = understand(text)
    const broad = broadPosts(lib.db, q.filter, (now += STEADY_MS + 1))
    const lexical = lexicalCandidates(lib.db, q, null, false, { broad })
    const nearest = await semanticCandidates(lib.db, index, await index.embedQuery(q.semanticText), q, null, async () => null, broad)
    return { warm: broad !== null, nearest: nearest.map((c) => c.id), hits: fuse(lexical, nearest).map((f) => f.id) }
  }

  it('proposes the same posts, in the same order, either way', async () => {
    const before = await ask()
    await ask()
    const after = await ask()
    expect([before.warm, after.warm]).toEqual([false, true])
    // The case itself: posts of 2023 beyond the nearest 1,000 are among the filter's nearest.
    const first1000 = new Set((await index.query(await index.embedQuery(understand(text).semanticText), 1000)).map((c) => c.id))
    expect(after.nearest.filter((id) => !first1000.has(id)).length).toBeGreaterThan(0)
    expect(after.nearest.every((id) => in2023.includes(id))).toBe(true)
    expect(before.nearest).toEqual(after.nearest)
    expect(before.hits).toEqual(after.hits)
  })
})
