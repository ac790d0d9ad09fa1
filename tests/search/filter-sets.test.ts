import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lexicalCandidates, semanticCandidates } from '../../src-main/search/candidates.ts'
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
