import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lexicalCandidates, narrowPosts, semanticCandidates } from '../../src-main/search/candidates.ts'
import { createLocalEmbedder } from '../../src-main/search/index.ts'
import { createQueryUnderstanding } from '../../src-main/search/query-understanding.ts'
import { createSemanticIndex } from '../../src-main/search/semantic.ts'
import { deleteBookmarks, searchFilteredIds, searchFilterIds, searchFtsQueueSize, searchIndexQueued, searchLexical } from '../../src-main/store/index.ts'
import { beginWrite } from '../../src-main/store/queries/bookmark-writes.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
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

  it('does not look at the queue when the search found nothing queued as it began', () => {
    const q = understand('pruning roses')
    expect(lexicalCandidates(lib.db, q, narrowPosts(lib.db, q.filter), false).map((c) => c.id)).toEqual([ids.indexed])
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

describe('matches among posts not indexed yet, while an import writes', () => {
  const lib = searchDb()
  let understand: ReturnType<typeof createQueryUnderstanding>
  beforeAll(() => {
    lib.add('Pruning roses in early spring', 'gardener')
    while (searchIndexQueued(lib.db, 64) > 0);
    understand = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15) })
  })
  afterAll(() => lib.close())
  const found = (text: string) => {
    const q = understand(text)
    return lexicalCandidates(lib.db, q, narrowPosts(lib.db, q.filter)).map((c) => c.id)
  }

  it('reuses the pass over the queue for a second while an import transaction is open, not after it commits', () => {
    const first = lib.add('Roses after the first flush want pruning', 'gardener')
    expect(found('pruning roses')).toContain(first)
    const write = beginWrite(lib.db)
    const during = lib.add('Pruning climbing roses on a wall', 'gardener')
    // The import writes every few ms; each search re-reading the queue filled the HTTP thread.
    expect(found('pruning roses')).not.toContain(during)
    write.commit()
    expect(found('pruning roses')).toEqual(expect.arrayContaining([first, during]))
  })

  it('an edit outside an import is found by the next search at once', () => {
    expect(found('espresso')).toEqual([])
    const added = lib.add('Espresso at home with a lever machine', 'barista')
    expect(found('espresso')).toEqual([added])
  })

  it('a reused match that has since been indexed is proposed once', () => {
    const added = lib.add('Espresso grinders compared', 'barista')
    const other = lib.add('Tomatoes want deep watering', 'gardener')
    const before = found('espresso grinders')
    expect(before[0]).toBe(added)
    while (searchIndexQueued(lib.db, 64) > 0);
    // Queued again for the index (as a new summary does): the library itself has not changed.
    sqliteOf(lib.db).prepare('INSERT INTO search_fts_queue(bookmark_id) VALUES (?)').run(other)
    expect(found('espresso grinders')).toEqual(before)
  })
})

describe('minus words', () => {
  const lib = searchDb()
  const texts = ['SQLite tuning for phones', 'SQLite benchmarks, again', 'Postgres benchmarks and SQLite ones', 'SQLite indexes explained', 'Postgres vacuum notes']
  let ids: number[] = []
  beforeAll(() => {
    ids = texts.map((t) => lib.add(t))
    while (searchIndexQueued(lib.db, 64) > 0);
  })
  afterAll(() => lib.close())
  const holding = (word: string) => ids.filter((_, i) => texts[i].toLowerCase().includes(word))

  it('leave the word half the posts and scores it finds without them, less the posts holding them', () => {
    const all = searchLexical(lib.db, '"sqlite" OR "postgres"', {}, 10)
    const minus = searchLexical(lib.db, '"sqlite" OR "postgres"', { mustNotMatch: ['"benchmarks"', '"vacuum"'] }, 10)
    const dropped = new Set([...holding('benchmarks'), ...holding('vacuum')])
    expect(minus.map((r) => r.id)).toEqual(all.filter((r) => !dropped.has(r.id)).map((r) => r.id))
    expect(minus.map((r) => r.id).sort()).toEqual([ids[0], ids[3]].sort())
    for (const r of minus) expect(r.score).toBeCloseTo(all.find((a) => a.id === r.id)!.score, 9)
    // Scoring capped to the newest matches: the newest that pass.
    expect(searchLexical(lib.db, '"sqlite" OR "postgres"', { mustNotMatch: ['"benchmarks"'] }, 10, 2).map((r) => r.id).sort()).toEqual([ids[3], ids[4]].sort())
  })

  it('drop the neighbours holding them, with or without other filters', () => {
    expect(searchFilterIds(lib.db, { mustNotMatch: ['"benchmarks"'] }, ids).sort()).toEqual([ids[0], ids[3], ids[4]].sort())
    expect(searchFilterIds(lib.db, { mustNotMatch: ['"benchmarks"', '"tuning"'], before: Date.UTC(2030, 0, 1) }, ids).sort()).toEqual([ids[3], ids[4]].sort())
    expect(searchFilterIds(lib.db, { mustNotMatch: ['"benchmarks"'] }, [])).toEqual([])
  })

  it('with quoted phrases, narrow a search to the posts holding every phrase and no minus word, oldest first', () => {
    expect(searchFilteredIds(lib.db, { mustMatch: ['"sqlite"'] }, 3)).toEqual([ids[0], ids[1], ids[2]])
    expect(searchFilteredIds(lib.db, { mustMatch: ['"sqlite"'], mustNotMatch: ['"benchmarks"'] })).toEqual([ids[0], ids[3]])
    expect(searchFilteredIds(lib.db, { mustMatch: ['"postgres"', '"benchmarks"'], after: Date.UTC(2020, 0, 1) })).toEqual([ids[2]])
    expect(searchFilteredIds(lib.db, { mustMatch: ['"postgres"'], after: Date.UTC(2030, 0, 1) })).toEqual([])
  })
})

describe('quoted phrases alone', () => {
  const lib = searchDb()
  afterAll(() => lib.close())

  it('walk the word index only, and a removed post leaves it with its row', () => {
    const ids = ['SQLite one', 'SQLite two', 'SQLite three', 'Postgres four'].map((t) => lib.add(t))
    while (searchIndexQueued(lib.db, 64) > 0);
    expect(searchFilteredIds(lib.db, { mustMatch: ['"sqlite"'] })).toEqual(ids.slice(0, 3))
    deleteBookmarks(lib.db, [ids[1]])
    expect(searchFilteredIds(lib.db, { mustMatch: ['"sqlite"'] })).toEqual([ids[0], ids[2]])
    expect(searchFilteredIds(lib.db, { mustMatch: ['"sqlite"'] }, 1)).toEqual([ids[0]])
  })
})

describe('filters checked by id', () => {
  const lib = searchDb()
  let ids: number[] = []
  beforeAll(() => {
    ids = ['Espresso ratios, part one', 'Espresso grinders compared', 'Espresso at home with a cheap machine', 'Espresso crema myths'].map((t) => lib.add(t))
    const set = sqliteOf(lib.db).prepare('UPDATE bookmarks SET lang = ?, media_count = ? WHERE id = ?')
    set.run('de', 0, ids[0])
    set.run('en', 1, ids[1])
    sqliteOf(lib.db).prepare("INSERT INTO media (bookmark_id, position, type, url, thumbnail_url) VALUES (?, 0, 'photo', 'https://example.com/a.jpg', 'https://example.com/a-small.jpg')").run(ids[1])
    while (searchIndexQueued(lib.db, 64) > 0);
  })
  afterAll(() => lib.close())
  const dated = { after: Date.UTC(2024, 0, 1) + 2, before: Date.UTC(2024, 0, 1) + 4 } // the 2nd and 3rd posts' times

  it('keep the neighbours and word matches that pass a date, a language or an image', () => {
    expect(searchFilterIds(lib.db, dated, ids).sort()).toEqual([ids[1], ids[2]].sort())
    expect(searchFilterIds(lib.db, { lang: 'de' }, ids)).toEqual([ids[0]])
    expect(searchFilterIds(lib.db, { has: ['image'] }, ids)).toEqual([ids[1]])
    expect(searchLexical(lib.db, '"espresso"', dated, 10, 500).map((r) => r.id).sort()).toEqual([ids[1], ids[2]].sort())
    expect(searchLexical(lib.db, '"espresso"', { lang: 'en', has: ['image'] }, 10, 500).map((r) => r.id)).toEqual([ids[1]])
    expect(searchFilteredIds(lib.db, { mustMatch: ['"espresso"'], ...dated })).toEqual([ids[1], ids[2]])
  })

  it('read the posts\' filter index, not their rows (a row is ~2.5 KB; the index is what the page cache keeps)', () => {
    const plan = (sql: string) => (sqliteOf(lib.db).prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join(' | ')
    expect(plan(`SELECT b.id FROM bookmarks b INDEXED BY bookmarks_filter_idx WHERE b.id IN (SELECT value FROM json_each('[1]'))
      AND b.post_created_at >= 0 AND b.lang = 'de' AND b.media_count > 0`)).toContain('COVERING INDEX bookmarks_filter_idx')
  })
})
