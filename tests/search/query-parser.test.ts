import { describe, expect, it } from 'vitest'
import { parseQuery } from '../../src-main/search/query-parser.ts'
import { createSpeller, prefixDistance } from '../../src-main/search/spelling.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

const NOW = Date.UTC(2024, 4, 15, 9) // Wednesday 15 May 2024
const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString().slice(0, 10))
const range = (q: string) => {
  const p = parseQuery(q, NOW)
  return [iso(p.dates?.after), iso(p.dates?.before), p.dates?.label]
}

describe('parseQuery', () => {
  it('takes authors, categories, media, phrases and minus words out of the free text', () => {
    const p = parseQuery('find that post about "rust async" from:@Alice in:dev-tools has:image -crypto tokio runtime', NOW)
    expect(p).toMatchObject({
      author: 'alice', category: 'dev-tools', has: ['image'], phrases: ['rust async'], excluded: ['crypto'],
      terms: ['tokio', 'runtime'], text: 'find that post about tokio runtime',
    })
    expect(p.parts.map((x) => x.kind)).toEqual(['phrase', 'author', 'category', 'media', 'exclude'])
    expect(parseQuery('threads by @simonw about llms', NOW)).toMatchObject({ author: 'simonw', terms: ['threads', 'llms'] })
    expect(parseQuery('from @karpathy', NOW).author).toBe('karpathy')
    expect(parseQuery('in:"Dev Tools" sqlite', NOW).category).toBe('Dev Tools')
    expect(parseQuery('recipes in the cooking category', NOW)).toMatchObject({ category: 'cooking', terms: ['recipes'] })
    expect(parseQuery('-"hot take" opinions', NOW).excluded).toEqual(['hot take'])
  })

  it('treats media words as hints, not filters', () => {
    const p = parseQuery('the screenshot of a benchmark chart', NOW)
    expect(p.has).toEqual([])
    expect(p.mediaHints).toEqual(['image'])
    expect(p.terms).toContain('benchmark')
    expect(parseQuery('has:video talk', NOW).mediaHints).toEqual([])
  })

  it('reads dates and relative time phrases as UTC ranges', () => {
    expect(range('last month')).toEqual(['2024-04-01', '2024-05-01', 'last month'])
    expect(range('last year')).toEqual(['2023-01-01', '2024-01-01', 'last year'])
    expect(range('this week')).toEqual(['2024-05-13', null, 'this week'])
    expect(range('last week')).toEqual(['2024-05-06', '2024-05-13', 'last week'])
    expect(range('2023')).toEqual(['2023-01-01', '2024-01-01', '2023'])
    expect(range('in March 2024')).toEqual(['2024-03-01', '2024-04-01', 'March 2024'])
    expect(range('in march')).toEqual(['2024-03-01', '2024-04-01', 'March 2024'])
    expect(range('in june')).toEqual(['2023-06-01', '2023-07-01', 'June 2023'])
    expect(range('since 2022')).toEqual(['2022-01-01', null, 'since 2022'])
    expect(range('before:2023-05')).toEqual([null, '2023-05-01', 'before May 2023'])
    expect(range('after:2023-05-02')).toEqual(['2023-05-03', null, 'after 2023-05-02'])
    expect(range('in the last 7 days')).toEqual(['2024-05-08', null, 'in the last 7 days'])
    expect(range('since 2022 before:2023-06')).toEqual(['2022-01-01', '2023-06-01', 'since 2022, before June 2023'])
  })

  it('leaves ordinary words that look like months alone', () => {
    const p = parseQuery('you may like this march of progress', NOW)
    expect(p.dates).toBeNull()
    expect(p.terms).toEqual(['may', 'march', 'progress'])
    expect(parseQuery('windows 95 nostalgia', NOW).dates).toBeNull()
  })
})

describe('spelling fallback', () => {
  it('measures distance against the best prefix of the word', () => {
    expect(prefixDistance('compresion', 'compress', 2)).toBe(1)
    expect(prefixDistance('databse', 'databas', 2)).toBe(1)
    expect(prefixDistance('catastrophe', 'cat', 2)).toBeGreaterThan(2)
  })

  it('prefers the closest term, then the more common one', () => {
    const s = createSpeller([{ term: 'kubernet', doc: 3 }, { term: 'kubectl', doc: 9 }, { term: 'postgr', doc: 5 }, { term: 'postman', doc: 50 }])
    expect(s.correct('kuberntes')).toBe('kubernet')
    expect(s.correct('postgers')).toBe('postgr')
    expect(s.correct('zzzzzz')).toBeNull()
    expect(s.correct('cat')).toBeNull()
  })
})

describe('searchTextClause (FTS-backed word filter for the bookmark list)', () => {
  it('matches every word in text or author, the last as a prefix, and queued posts by LIKE', async () => {
    const { openDatabase, closeDatabase } = await import('../../src-main/store/index.ts')
    const { searchTextClause } = await import('../../src-main/store/queries/bookmark-filter.ts')
    const { searchIndexQueued } = await import('../../src-main/store/queries/search.ts')
    const { queueNewPostsForSearch } = await import('../../src-main/store/queries/bookmark-writes.ts')
    const db = openDatabase({ file: ':memory:' })
    const ins = sqliteOf(db).prepare(`INSERT INTO bookmarks(post_id, text, author_handle, author_name, post_created_at, source, raw_json, content_hash)
      VALUES (?, ?, ?, ?, 0, 'bookmark', '{}', 'h')`)
    ins.run('1', 'Databases are wonderful', 'alice', 'Alice')
    ins.run('2', 'Cooking pasta tonight', 'bob', 'Bob')
    queueNewPostsForSearch(db, 0) // what insertBookmark and the importer do for new rows (no insert trigger since 0007)
    const ids = (q: string) => {
      const c = searchTextClause(q)!
      return sqliteOf(db).prepare(`SELECT b.id FROM bookmarks b WHERE ${c.clause} ORDER BY b.id`).pluck().all(...c.params)
    }
    expect(ids('cooks')).toEqual([]) // queued: LIKE needs the substring
    expect(ids('databases alice')).toEqual([1])
    expect(searchIndexQueued(db, 100)).toBe(2)
    expect(ids('cooks')).toEqual([2]) // indexed: stemmed
    expect(ids('cook pas')).toEqual([2]) // last word as prefix; "cook" ~ "cooking"
    expect(ids('bob cooking')).toEqual([2])
    expect(ids('alice pasta')).toEqual([])
    expect(searchTextClause('  ')).toBeNull()
    closeDatabase(db)
  })
})
