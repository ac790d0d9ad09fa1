import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createQueryUnderstanding } from '../../src-main/search/query-understanding.ts'
import { putSetting, searchIndexQueued, searchVocabulary } from '../../src-main/store/index.ts'
import { searchDb } from './search-db.ts'

describe('query understanding', () => {
  const lib = searchDb()
  let understand: ReturnType<typeof createQueryUnderstanding>
  beforeAll(() => {
    lib.add('Kubernetes operators in production')
    lib.add('Sourdough starters need feeding', 'baker')
    while (searchIndexQueued(lib.db, 64) > 0);
    understand = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15) })
  })
  afterAll(() => lib.close())

  it('turns operators into a filter and keeps the words', () => {
    const q = understand('from:@baker sourdough -rye "fed daily"')
    expect(q.filter).toMatchObject({ author: 'baker', mustMatch: ['"fed daily"'], mustNotMatch: ['"rye"'] })
    expect(q.matchers).toEqual([{ term: 'sourdough', corrected: null }])
    expect(q.hasText).toBe(true)
    expect(q.typo).toBe(false)
  })

  it('reads a word no post holds as the library spells it, says so, and trusts meaning less', () => {
    const q = understand('kubernetse')
    expect(q.matchers[0].corrected).toBeTruthy()
    expect(q.understood.corrections).toEqual([{ from: 'kubernetse', to: 'kubernetes' }])
    expect(q.semanticText).toBe('kubernetes')
    expect(q.typo).toBe(true)
    expect(q.meaningWeight).toBeLessThan(understand('kubernetes').meaningWeight)
  })

  it('notes a category that does not exist instead of filtering by it', () => {
    const q = understand('in:recipes bread')
    expect(q.filter.categoryId).toBeUndefined()
    expect(q.notes.join(' ')).toMatch(/no category called "recipes"/)
  })

  it('reads the vocabulary again when the word index changed, and not for other writes', () => {
    let reads = 0
    const spelt = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15), vocabulary: (db) => (reads++, searchVocabulary(db)) })
    expect(spelt('kubernetse').understood.corrections).toEqual([{ from: 'kubernetse', to: 'kubernetes' }])
    expect(reads).toBe(1)
    // A write outside the word index: a word nothing is close to does not make the vocabulary be read again.
    putSetting(lib.db, 'search.test', 1)
    expect(spelt('qwxzvyuk').understood.corrections).toEqual([])
    expect(reads).toBe(1)
    // A post indexed since: its word is in the vocabulary the typo is read against.
    lib.add('Terraform modules for staging')
    while (searchIndexQueued(lib.db, 64) > 0);
    expect(spelt('terrafrom').understood.corrections).toEqual([{ from: 'terrafrom', to: 'terraform' }])
    expect(reads).toBe(2)
  })
})
