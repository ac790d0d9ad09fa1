import { escapeRegExp } from '../../src-shared/regex.ts'
import type { SearchUnderstood } from '../../src-shared/schemas/search.ts'
import {
  categoryForSearch, searchDocuments, searchHasMatch, searchIndexStamp, searchLexical, searchVocabulary, type Db, type SearchFilter,
} from '../store/index.ts'
import { SEMANTIC_WEIGHT, surface, type TermMatcher } from './evidence.ts'
import { prepareLanguagePhrases } from './language-phrases.ts'
import { parseQuery, queryWithout, type ParsedQuery } from './query-parser.ts'
import { createSpeller, loadDictionary, type Speller } from './spelling.ts'
import type { WordSearch } from './word-memory-keeper.ts'

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

export function createQueryUnderstanding({ db, clock, vocabulary = searchVocabulary }: {
  db: Db; clock: () => number; vocabulary?: typeof searchVocabulary
}): (raw: string, words?: WordSearch | null) => Understanding {
  const dictionary = loadDictionary()
  prepareLanguagePhrases()
  let speller: { at: number; stamp: string; s: Speller } | null = null

  // The vocabulary is re-read when the word index changed, at most every few seconds unless a word found no match.
  // `words`, the word index's copy when current, holds the same terms and counts (at 100,000 posts 15 ms against fts5vocab's 82).
  const correct = (word: string, words: WordSearch | null): string | null => {
    const stamp = words?.stamp ?? searchIndexStamp(db)
    const fresh = () => (speller = { at: performance.now(), stamp, s: createSpeller(words?.vocabulary() ?? vocabulary(db)) })
    if (!speller || (speller.stamp !== stamp && performance.now() - speller.at > SPELLER_MAX_AGE_MS)) fresh()
    const hit = speller!.s.correct(word)
    if (hit !== null || speller!.stamp === stamp) return hit
    return fresh().s.correct(word)
  }

  // `words`: the word index's copy in memory (word-memory-keeper.ts, current), which answers what it can.
  return (raw, words = null) => {
    const hasMatch = (expr: string): boolean => {
      const n = words?.count(expr, 1)
      return n === undefined || n === null ? searchHasMatch(db, expr) : n > 0
    }
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
      if (/\d/.test(term) || dictionary.has(term) || hasMatch(termExpr(term))) return { term, corrected: null }
      const corrected = term.length < 4 ? null : correct(term, words)
      if (!corrected) unknownWords++
      return { term, corrected }
    })
    const corrections: Array<{ from: string; to: string }> = []
    for (const m of matchers) {
      if (!m.corrected) continue
      const expr = `"${m.corrected}"*`
      const [hit] = words?.lexical([expr], 1, SCORE_CAP) ?? searchLexical(db, expr, {}, 1, SCORE_CAP)
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

/** What the query asked for, as the UI shows it: chips, corrections and notes. */
function describe(p: ParsedQuery, cat: { slug: string; name: string } | null, corrections: Array<{ from: string; to: string }>, notes: string[]): SearchUnderstood {
  const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString())
  const chips: SearchUnderstood['chips'] = p.parts
    .filter((part) => part.kind !== 'category' || cat)
    .map((part) => ({ kind: part.kind, label: part.kind === 'category' && cat ? `in ${cat.name}` : part.label, queryWithout: queryWithout(p.raw, part) }))
  if (p.unknownLang !== null) notes.push(`"${p.unknownLang}" is not a language code such as de or es, so posts in every language were searched.`)
  // Removing a correction searches the word as typed: quoted, it is taken literally and never corrected.
  for (const c of corrections) {
    chips.push({ kind: 'correction', label: `showing results for "${c.to}" (you typed "${c.from}")`, queryWithout: asTyped(p.raw, c.from) })
  }
  return {
    text: p.text,
    terms: p.terms,
    phrases: p.phrases,
    excluded: p.excluded,
    author: p.author,
    category: cat ? { slug: cat.slug, name: cat.name } : null,
    lang: p.lang,
    has: p.has,
    mediaHints: p.mediaHints,
    after: iso(p.dates?.after),
    before: iso(p.dates?.before),
    corrections,
    notes,
    chips,
  }
}

/** The query with `word` quoted, so that it is searched exactly as typed. */
function asTyped(raw: string, word: string): string {
  return raw.replace(new RegExp(`(?<![\\p{L}\\p{N}"])${escapeRegExp(word)}(?![\\p{L}\\p{N}"])`, 'iu'), (m) => `"${m}"`)
}

/**
 * Meaning counts for less beside the words when the query holds a typo (bench/search-relevance.ts: 0.3
 * cost a paraphrase). The sentence encoder cannot read a misspelt word: the query's vector then lands
 * near the posts it cannot read either (emoji, one-word replies, scripts it was not trained on), which
 * outranked the post the other words found.
 */
const TYPO_SEMANTIC_WEIGHT = 0.5

/** The query with each corrected word spelt as the library spells it ("rebase" for "rebsae"). */
function meaningText(text: string, corrections: ReadonlyArray<{ from: string; to: string }>): string {
  let out = text
  for (const c of corrections) out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(c.from)}(?![\\p{L}\\p{N}])`, 'giu'), c.to)
  return out
}

/**
 * A query with a corrected word, or a word that is no known word, is in no post and has no
 * correction (a typo the speller could not place, or a word the encoder likely misreads too).
 */
const hasTypo = (corrections: number, unknownWords: number): boolean => corrections > 0 || unknownWords > 0

const semanticWeight = (typo: boolean): number => (typo ? TYPO_SEMANTIC_WEIGHT : SEMANTIC_WEIGHT)

/** FTS5 query strings built from the query's words: every user word is quoted so it can never be an operator. */
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`

/** A word as an FTS5 term (porter stemming merges endings); `word*` asks for a prefix. */
export function termExpr(word: string): string {
  const w = word.replace(/\*+$/, '')
  if (!w) return ''
  return word.endsWith('*') ? `${quote(w)}*` : quote(w)
}

export const phraseExpr = (phrase: string): string => quote(phrase)

/** As-you-type: every word must match, the last one as a prefix; only the text and author columns. */
export function quickExpr(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_]*/gu)
  if (!words || words.length === 0) return null
  // A one-letter prefix would merge thousands of doclists; it matches as a whole word until a second letter comes.
  const parts = words.slice(0, 8).map((w, i) => (i === words.length - 1 && w.length >= 2 ? `${quote(w)}*` : quote(w)))
  return `{text author} : (${parts.join(' AND ')})`
}
