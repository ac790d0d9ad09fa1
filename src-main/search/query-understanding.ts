import type { SearchUnderstood } from '../../src-shared/schemas/search.ts'
import { categoryForSearch, dataStamp, searchDocuments, searchHasMatch, searchLexical, searchVocabulary, type Db, type SearchFilter } from '../store/faces/search.ts'
import { surface, type TermMatcher } from './explain.ts'
import { phraseExpr, termExpr } from './fts-query.ts'
import { parseQuery, type ParsedQuery } from './query-parser.ts'
import { hasTypo, meaningText, semanticWeight } from './query-meaning.ts'
import { createSpeller, loadDictionary, type Speller } from './spelling.ts'
import { describe } from './understood.ts'

/** What a query asks for: its filter, its words (typos read as the library spells them) and how far to trust meaning. */
export interface Understanding {
  raw: string
  parsed: ParsedQuery
  category: { id: number; slug: string; name: string } | null
  filter: SearchFilter
  matchers: TermMatcher[]
  /** The text the meaning half embeds (corrections applied). */
  semanticText: string
  typo: boolean
  meaningWeight: number
  understood: SearchUnderstood
  /** Notes for the answer; later stages may add theirs. */
  notes: string[]
  hasText: boolean
}

const SPELLER_MAX_AGE_MS = 10_000
/** BM25 scores the newest this many matches at most when looking up how a correction is spelt. */
const SCORE_CAP = 500

export function createQueryUnderstanding({ db, clock }: { db: Db; clock: () => number }): (raw: string) => Understanding {
  const dictionary = loadDictionary()
  let speller: { at: number; stamp: string; s: Speller } | null = null

  // The vocabulary is re-read when the library changed, at most every few seconds unless a word found no match.
  const correct = (word: string): string | null => {
    const stamp = dataStamp(db)
    const fresh = () => (speller = { at: performance.now(), stamp, s: createSpeller(searchVocabulary(db)) })
    if (!speller || (speller.stamp !== stamp && performance.now() - speller.at > SPELLER_MAX_AGE_MS)) fresh()
    const hit = speller!.s.correct(word)
    if (hit !== null || speller!.stamp === stamp) return hit
    return fresh().s.correct(word)
  }

  return (raw) => {
    const p = parseQuery(raw, clock())
    const notes: string[] = []
    const cat = p.category ? categoryForSearch(db, p.category) : null
    if (p.category && !cat) notes.push(`There is no category called "${p.category}", so all categories were searched.`)
    const filter: SearchFilter = {
      author: p.author ?? undefined,
      categoryId: cat?.id,
      has: p.has,
      after: p.dates?.after ?? undefined,
      before: p.dates?.before ?? undefined,
      mustMatch: p.phrases.map(phraseExpr),
      mustNotMatch: p.excluded.map(phraseExpr),
      lang: p.lang ?? undefined,
    }
    // Only a word that finds nothing and is no known word (a dictionary's or the library's) is read as
    // its closest indexed spelling; the answer says so and offers the word as typed.
    let unknownWords = 0
    const matchers: TermMatcher[] = p.terms.map((term) => {
      if (/\d/.test(term) || dictionary.has(term) || searchHasMatch(db, termExpr(term))) return { term, corrected: null }
      const corrected = term.length < 4 ? null : correct(term)
      if (!corrected) unknownWords++
      return { term, corrected }
    })
    const corrections: Array<{ from: string; to: string }> = []
    for (const m of matchers) {
      if (!m.corrected) continue
      const [hit] = searchLexical(db, `"${m.corrected}"*`, {}, 1, SCORE_CAP)
      const shown = (hit && surface(searchDocuments(db, [hit.id])[0], m.corrected)) || m.corrected
      corrections.push({ from: m.term, to: shown })
    }
    const typo = hasTypo(corrections.length, unknownWords)
    return {
      raw,
      parsed: p,
      category: cat,
      filter,
      matchers,
      semanticText: meaningText(p.text, corrections),
      typo,
      meaningWeight: semanticWeight(typo),
      understood: describe(p, cat, corrections, notes),
      notes,
      hasText: matchers.length > 0 || p.phrases.length > 0,
    }
  }
}
