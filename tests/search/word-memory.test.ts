import { readdirSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lexicalCandidates, narrowPosts } from '../../src-main/search/candidates.ts'
import { postSetOf } from '../../src-main/search/filter-sets.ts'
import { createQueryUnderstanding } from '../../src-main/search/query-understanding.ts'
import { createWordMemory, type WordMemory, type WordSearch } from '../../src-main/search/word-memory-keeper.ts'
import { KEEP_PREFIXES, openWordIndex, packWordIndex } from '../../src-main/search/word-memory.ts'
import {
  hasSearchFilter, readWordIndex, searchFilteredIds, searchIndexQueued, searchLexical, searchMatchCount, searchMatchingAmong, searchVocabulary, type SearchFilter,
} from '../../src-main/store/index.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { searchDb } from './search-db.ts'

// The word index copied into memory (word-memory.ts) answers a plain-word question exactly as FTS5's
// bm25() does, and only while the word index is as it was when the copy was read.

const WORDS = ['running', 'runner', 'runs', 'database', 'databases', 'vector', 'vectors', 'embedding', 'embeddings', 'sqlite',
  'typography', 'faster', 'context', 'window', 'garden', 'roses', 'pruning', 'sourdough', 'bread', 'kubernetes', 'café', 'naïve',
  'Über', 'latency', 'search', 'index', 'the', 'a', 'of', 'model', 'models', 'modelling']
const HANDLES = ['vectorfan', 'gardener', 'dbadmin', 'someone', 'runnerbean']

/** A post of 3-40 words drawn from WORDS (a few repeated), deterministic. */
function posts(n: number): Array<{ text: string; handle: string }> {
  let seed = 12345
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647
  return Array.from({ length: n }, () => {
    const len = 3 + Math.floor(rnd() * rnd() * 38)
    const text = Array.from({ length: len }, () => WORDS[Math.floor(rnd() * rnd() * WORDS.length)]).join(' ')
    return { text, handle: HANDLES[Math.floor(rnd() * HANDLES.length)] }
  })
}

/** Expressions as lexicalMatch writes them: plain words and prefixes, one or several OR-ed. */
const QUESTIONS: string[][] = [
  ['"running"'], ['"vector"'], ['"database"', '"sqlite"'], ['"vector"*', '"embedding"*'], ['"run"*'], ['"model"*', '"the"'],
  ['"cafe"'], ['"naive"*', '"über"'], ['"the"', '"a"', '"of"'], ['"garden"', '"gardener"'], ['"ru"*'], ['"nothinghere"'],
  ['"nothinghere"', '"typography"'], ['"window"', '"window"'],
]

/** Filters as search builds them, and whether a search holds their posts in memory (filter-sets.ts: never for phrases). */
const AFTER = Date.UTC(2024, 0, 1) + 150
const FILTERS: Array<[SearchFilter, boolean]> = [
  [{ mustNotMatch: ['"the"'] }, false], [{ mustNotMatch: ['"vector"', '"sqlite"'] }, false], [{ mustNotMatch: ['"the"'] }, true],
  [{ mustNotMatch: ['"nothinghere"'] }, false], [{ mustMatch: ['"database"'] }, false], [{ mustMatch: ['"the"', '"roses"'], mustNotMatch: ['"garden"'] }, false],
  [{ author: 'gardener' }, true], [{ after: AFTER }, true], [{ author: 'vectorfan', mustNotMatch: ['"the"'] }, true],
  [{ before: AFTER, mustNotMatch: ['"running"', '"a"'] }, true], [{ author: 'nobody' }, true],
]

async function until(what: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}

const indexAll = (db: Parameters<typeof searchIndexQueued>[0]) => {
  while (searchIndexQueued(db, 64) > 0);
}

describe('the word index in memory', () => {
  const lib = searchDb()
  let words: WordMemory
  beforeAll(async () => {
    for (const p of posts(400)) lib.add(p.text, p.handle)
    indexAll(lib.db)
    words = createWordMemory({ db: lib.db, quietMs: 100, endedMs: 50 })
    words.writesEnded()
    await until(() => words.current() !== null)
  })
  afterAll(async () => {
    await words.close()
    lib.close()
  })

  /** Memory's answer and FTS5's for each question: the same posts in the same order, the same scores to 1e-9 (relative), the same counts. */
  const expectSameAsFts5 = (mem: WordSearch, questions: string[][], cap = 500) => {
    let rows = 0
    for (const exprs of questions) {
      const want = searchLexical(lib.db, exprs.join(' OR '), {}, 200, cap)
      const got = mem.lexical(exprs, 200, cap)!
      expect(got.map((c) => c.id), exprs.join(' OR ')).toEqual(want.map((c) => c.id))
      got.forEach((c, i) => expect(Math.abs(c.score - want[i].score), `${exprs.join(' OR ')} #${i}`).toBeLessThanOrEqual(1e-9 * Math.abs(want[i].score)))
      for (const e of exprs) expect(mem.count(e, 2001), e).toBe(searchMatchCount(lib.db, e, 2001))
      rows += want.length
    }
    return rows
  }

  it('scores as FTS5\'s bm25() does, plain words and prefixes, the newest matches up to the cap', () => {
    const mem = words.current()!
    expect(expectSameAsFts5(mem, QUESTIONS)).toBeGreaterThan(400)
    // A cap below the matches: the newest `cap` are the ones scored.
    expectSameAsFts5(mem, QUESTIONS, 30)
    expect(words.bytes).toBeGreaterThan(0)
  })

  it('answers filtered questions as FTS5 does: minus words, one-word phrases, a broad filter\'s posts in memory', () => {
    const mem = words.current()!
    let rows = 0
    for (const [filter, kept] of FILTERS) {
      // The filter's posts in memory, as filter-sets.ts keeps them (phrases are left to SQL there).
      const passing = kept ? postSetOf(searchFilteredIds(lib.db, filter)) : undefined
      for (const exprs of QUESTIONS) {
        for (const cap of [500, 30]) {
          const label = `${exprs.join(' OR ')} ${JSON.stringify(filter)} cap ${cap}`
          const want = searchLexical(lib.db, exprs.join(' OR '), filter, 200, cap, passing)
          const got = mem.lexical(exprs, 200, cap, filter, passing)
          expect(got, label).not.toBeNull()
          expect(got!.map((c) => c.id), label).toEqual(want.map((c) => c.id))
          expect(got!.map((c) => c.score), label).toEqual(want.map((c) => c.score))
          rows += want.length
        }
      }
    }
    expect(rows).toBeGreaterThan(10_000)
  })

  it('finds which of a few posts hold the words as FTS5 does, in their order', () => {
    const mem = words.current()!
    let seed = 7
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    let held = 0
    for (const exprs of QUESTIONS) {
      // Ids in no order, some twice, some not in the library.
      const ids = Array.from({ length: 150 }, () => Math.floor(rnd() * 460))
      const want = searchMatchingAmong(lib.db, exprs.join(' OR '), ids)
      expect(mem.among(exprs, ids), exprs.join(' OR ')).toEqual(want)
      held += want.length
    }
    expect(held).toBeGreaterThan(300)
  })

  it('answers the word half of filtered questions and the understanding\'s look-ups as FTS5 does', () => {
    const mem = words.current()!
    expect(mem.vocabulary()).toEqual(searchVocabulary(lib.db))
    // Each its own speller: one reads the library's words from the copy, the other from SQL.
    const viaMemory = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15) })
    const understand = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15) })
    for (const text of ['vector database -the', 'run* -sqlite -garden', 'embedding "the"', 'running "database"', 'vector "running"', 'garden* "runner" -sqlite', 'garden from:@gardener',
      'sqlite -"context window"', '"context window" vectors', 'vectr databse -roses', 'kuberntes sourdogh', 'models from:@dbadmin -the']) {
      const q = viaMemory(text, mem)
      expect(q, text).toEqual(understand(text))
      const small = narrowPosts(lib.db, q.filter)
      const broad = small === null && hasSearchFilter(q.filter) ? postSetOf(searchFilteredIds(lib.db, q.filter)) : null
      for (const cut of [small, small?.slice(0, 350) ?? null]) {
        expect(lexicalCandidates(lib.db, q, cut, false, { broad, words: mem }), text).toEqual(lexicalCandidates(lib.db, q, cut, false, { broad }))
      }
    }
  })

  it('leaves phrases and other expressions to FTS5', () => {
    const mem = words.current()!
    expect(mem.lexical(['"context window"'], 200, 500)).toBeNull()
    expect(mem.count('"context window"', 2001)).toBeNull()
    expect(mem.lexical(['"vector"', 'vector NOT sqlite'], 200, 500)).toBeNull()
    expect(mem.among(['"vector"', '"context window"'], [1, 2, 3])).toBeNull()
    // A minus phrase, a phrase besides another filter without its posts in memory, a filter without its posts.
    expect(mem.lexical(['"vector"'], 200, 500, { mustNotMatch: ['"context window"'] })).toBeNull()
    expect(mem.lexical(['"vector"'], 200, 500, { mustMatch: ['"context window"'] })).toBeNull()
    expect(mem.lexical(['"vector"'], 200, 500, { mustMatch: ['"garden"'], author: 'gardener' })).toBeNull()
    expect(mem.lexical(['"vector"'], 200, 500, { author: 'gardener' })).toBeNull()
  })

  it('answers from FTS5 once a write moves the stamp, then reads the index again when the writes have stopped', async () => {
    const before = words.current()!
    const builds = words.built
    const understand = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15) })
    const q = () => understand('zeppelin vectors')

    // A new post and a rewritten one, indexed: the copy no longer matches the word index.
    const added = lib.add('zeppelin vectors over the garden', 'someone')
    sqliteOf(lib.db).prepare("UPDATE bookmarks SET text = 'zeppelin runner with a vector database' WHERE id = 3").run()
    indexAll(lib.db)
    expect(words.current()).toBeNull()
    // The old copy knows neither; the search (from FTS5) finds both at once.
    expect(before.lexical(['"zeppelin"'], 200, 500)).toEqual([])
    const found = lexicalCandidates(lib.db, q(), null, false, { words: words.current() }).map((c) => c.id)
    expect(found).toContain(added)
    expect(found).toContain(3)

    await until(() => words.built > builds)
    const after = words.current()!
    expect(after).not.toBeNull()
    expect(after.lexical(['"zeppelin"'], 200, 500)!.map((c) => c.id).sort()).toEqual([3, added].sort())
    expectSameAsFts5(after, [...QUESTIONS, ['"zeppelin"', '"vector"'], ['"zep"*']])
    expect(lexicalCandidates(lib.db, q(), null, false, { words: after })).toEqual(lexicalCandidates(lib.db, q(), null, false))
  })

  it('never answers a filtered question or the understanding\'s look-ups from a copy the word index has moved past', () => {
    const before = words.current()!
    const understand = createQueryUnderstanding({ db: lib.db, clock: () => Date.UTC(2024, 11, 15) })
    const added = lib.add('zorblax vectors by the garden', 'gardener')
    indexAll(lib.db)
    // The old copy knows nothing of the new word: a filtered question or a look-up answered from it would miss the post.
    expect(before.lexical(['"zorblax"'], 200, 500, { mustNotMatch: ['"roses"'] })).toEqual([])
    expect(before.count('"zorblax"', 1)).toBe(0)
    const current = words.current()
    expect(current).toBeNull()
    for (const text of ['zorblax -roses', 'zorblax "garden"', 'zorblax from:@gardener', 'zorblax -roses from:@gardener']) {
      const q = understand(text, current)
      expect(q.matchers, text).toEqual([{ term: 'zorblax', corrected: null }])
      const small = narrowPosts(lib.db, q.filter)
      const broad = small === null ? postSetOf(searchFilteredIds(lib.db, q.filter)) : null
      expect(lexicalCandidates(lib.db, q, small, false, { broad, words: current }).map((c) => c.id), text).toContain(added)
    }
  })
})

describe('the prefix counts the word index in memory keeps', () => {
  it('holds at most KEEP_PREFIXES of them, and counts a dropped one again the same, as FTS5 does', () => {
    const lib = searchDb()
    try {
      // 10,000 words w0000 … w9999, ten a post: 1,000 three-digit prefixes (w000 …) of ten words each, 100 of a hundred, 10 of a thousand.
      const pad = (n: number, w: number) => String(n).padStart(w, '0')
      for (let i = 0; i < 1000; i++) lib.add(Array.from({ length: 10 }, (_, d) => `w${pad(i, 3)}${d}`).join(' '))
      indexAll(lib.db)
      const index = openWordIndex(readWordIndex(lib.db, packWordIndex))
      const prefixes = [...Array.from({ length: 1000 }, (_, i) => `w${pad(i, 3)}`), ...Array.from({ length: 100 }, (_, i) => `w${pad(i, 2)}`),
        ...Array.from({ length: 10 }, (_, i) => `w${i}`)]
      expect(prefixes.length).toBeGreaterThan(KEEP_PREFIXES)
      let most = 0
      const counts = prefixes.map((p) => {
        const docs = index.phrase(p, true).docs
        most = Math.max(most, index.prefixCounts)
        return docs
      })
      expect(most).toBe(KEEP_PREFIXES)
      expect(counts).toEqual(prefixes.map((p) => searchMatchCount(lib.db, `"${p}"*`, 5000)))
      // Asked again, those counted before the cache last cleared are counted anew: the same answers.
      expect(prefixes.map((p) => index.phrase(p, true).docs)).toEqual(counts)
      expect(index.prefixCounts).toBeLessThanOrEqual(KEEP_PREFIXES)
    } finally {
      lib.close()
    }
  })
})

describe('reading the word index again after a job', () => {
  /**
   * A library of 200 posts with a first copy read, kept by a keeper whose quiet spell outlasts the test:
   * only writesEnded() can bring a copy back in time.
   */
  const withFirstCopy = async (test: (lib: ReturnType<typeof searchDb>, words: WordMemory) => Promise<void>) => {
    const lib = searchDb()
    const words = createWordMemory({ db: lib.db, quietMs: 600_000, endedMs: 100 })
    try {
      for (const p of posts(200)) lib.add(p.text, p.handle)
      indexAll(lib.db)
      words.writesEnded()
      await until(() => words.built === 1, 10_000)
      await test(lib, words)
    } finally {
      await words.close()
      lib.close()
    }
  }

  it('reads it once the index has stood still, though the writes that follow the job\'s end moved it meanwhile', () => withFirstCopy(async (lib, words) => {
    lib.add('quokka one')
    indexAll(lib.db)
    expect(words.current()).toBeNull()
    // The job ends; the index goes on moving for a while (the word queue's catch-up), then stands still.
    words.writesEnded()
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 60))
      lib.add(`quokka ${i}`)
      indexAll(lib.db)
    }
    await until(() => words.built === 2, 10_000)
    expect(words.current()!.count('"quokka"', 100)).toBe(7)
  }))

  it('reads it when the job ends though no search has found the copy out of date yet', () => withFirstCopy(async (lib, words) => {
    lib.add('wombat')
    indexAll(lib.db)
    words.writesEnded()
    await until(() => words.built === 2, 10_000)
    expect(words.current()!.count('"wombat"', 100)).toBe(1)
    // Ended again with nothing written since: the copy is current, none is read.
    words.writesEnded()
    await new Promise((r) => setTimeout(r, 400))
    expect(words.built).toBe(2)
  }))
})

describe('closing the word index in memory', () => {
  /** This process's threads (a copy being read has one of its own, with its connection to the library). */
  const threads = () => readdirSync('/proc/self/task').length

  it('ends a copy being read, its thread and connection with it, before close resolves', async () => {
    const lib = searchDb()
    try {
      for (const p of posts(4000)) lib.add(p.text, p.handle)
      indexAll(lib.db)
      const before = threads()
      const words = createWordMemory({ db: lib.db, quietMs: 1, endedMs: 0 })
      words.writesEnded()
      await until(() => threads() > before, 5_000)
      await words.close()
      expect(threads()).toBe(before)
      expect(words.current()).toBeNull()
      expect(words.built).toBe(0)
    } finally {
      lib.close()
    }
  })
})
