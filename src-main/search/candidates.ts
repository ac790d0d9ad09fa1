import { LOCAL_EMBEDDING_MODEL } from '../ai/index.ts'
import {
  hasSearchFilter, searchBacklog, searchDocuments, searchFilteredIds, searchFilterIds, searchLexical, searchMatchCount, searchMatchingAmong,
  searchPostCount, searchQueuedMatching, type Db, type SearchFilter,
} from '../store/faces/search.ts'
import { approxBm25, COSINE_FLOOR, type TermMatcher } from './explain.ts'
import { phraseExpr, termExpr } from './fts-query.ts'
import { BLANK_TEXT, withoutBlank } from './query-meaning.ts'
import type { Understanding } from './query-understanding.ts'
import type { SemanticIndex } from './semantic.ts'

/** The posts each half of a search proposes, best first, before fusion. */
export type Candidate = { id: number; score: number }

export const CANDIDATES = 200
/** Posts scored by BM25 at most (the newest matches); a word in more posts than COMMON is common. */
const SCORE_CAP = 500
const COMMON = 2000
/** Neighbours checked against a filter before searching within the filter's own posts. */
const WIDE = 1000
/** A filter allowing at most this many posts is applied before scoring. */
const NARROW_MAX = 2000
const SEMANTIC_BAND = 0.2

/** A narrow filter (an author, a category, a phrase) is applied first: scoring is then done on its few posts. */
export function narrowPosts(db: Db, filter: SearchFilter): number[] | null {
  const narrow = filter.author !== undefined || filter.categoryId !== undefined || (filter.mustMatch?.length ?? 0) > 0
    ? searchFilteredIds(db, filter, NARROW_MAX + 1) : null
  return narrow !== null && narrow.length <= NARROW_MAX ? narrow : null
}

/**
 * Any of the words, rarest first, while together they hold at most COMMON posts; commoner words are
 * left to coverage and the semantic half: scoring every post that says "make" costs ~10 µs each and buys nothing.
 */
function lexicalMatch(db: Db, matchers: TermMatcher[], phrases: string[]) {
  const exprs = [...matchers.map((m) => (m.corrected ? `"${m.corrected}"*` : termExpr(m.term))), ...phrases.map(phraseExpr)].filter(Boolean)
  const counted = exprs.map((e) => ({ e, n: searchMatchCount(db, e, COMMON + 1) })).filter((x) => x.n > 0).sort((a, b) => a.n - b.n)
  // The rarest word always; more while together they stay under COMMON posts.
  const used = counted.filter((x, i) => i === 0 || counted.slice(0, i + 1).reduce((s, y) => s + y.n, 0) <= COMMON)
  return { match: used.map((x) => x.e).join(' OR '), counts: new Map(counted.map((x) => [x.e, x.n])), matches: used.reduce((s, x) => s + x.n, 0) }
}

/**
 * BM25 as FTS5 computes it (column weights inside the saturation, document length taken as
 * average) for a few posts: FTS5 can only score while walking a whole doclist.
 */
function scoreDocs(db: Db, ids: number[], q: Understanding, counts: Map<string, number>): Candidate[] {
  const n = searchPostCount(db)
  return searchDocuments(db, ids).map((d) => ({ id: d.id, score: approxBm25(d, q.matchers, q.parsed.phrases, counts, n) }))
    .filter((x) => x.score > 0).sort((a, b) => b.score - a.score).slice(0, CANDIDATES)
}

/**
 * The word half: BM25 over the word index, plus posts not in it yet (just imported) found by a LIKE
 * pass over the queue and scored the same way.
 */
export function lexicalCandidates(db: Db, q: Understanding, small: number[] | null): Candidate[] {
  const { match, counts, matches } = lexicalMatch(db, q.matchers, q.parsed.phrases)
  let found: Candidate[] = []
  if (match && small) {
    // A few hundred posts are read and matched here; more are first narrowed by the index.
    found = scoreDocs(db, small.length <= 300 ? small : searchMatchingAmong(db, match, small).slice(0, CANDIDATES * 2), q, counts)
  } else if (match) {
    // Under SCORE_CAP matches there is nothing to cap: the query finding where the cap starts is spared.
    found = searchLexical(db, match, q.filter, CANDIDATES, matches <= SCORE_CAP ? Infinity : SCORE_CAP)
  }
  return searchBacklog(db, 1).words === 0 ? found : [...found, ...unindexedCandidates(db, q, counts, small)].sort((a, b) => b.score - a.score).slice(0, CANDIDATES)
}

function unindexedCandidates(db: Db, q: Understanding, counts: Map<string, number>, small: number[] | null): Candidate[] {
  const words = [...q.matchers.map((m) => m.corrected ?? m.term.replace(/\*+$/, '')), ...q.parsed.phrases]
  let ids = searchQueuedMatching(db, words, CANDIDATES)
  if (ids.length === 0) return []
  const allowed = new Set(small ?? (hasSearchFilter(q.filter) ? searchFilterIds(db, q.filter, ids) : ids))
  ids = ids.filter((id) => allowed.has(id))
  return scoreDocs(db, ids, q, counts)
}

/**
 * Nearest posts that pass the filter: the best 1000 checked against it (cheap for broad filters
 * such as dates or media); a narrow filter that leaves too few is searched within its own posts.
 */
function nearestPassing(db: Db, index: SemanticIndex, qv: Float32Array, filter: SearchFilter, small: number[] | null): Candidate[] {
  if (small) return index.query(qv, CANDIDATES, new Set(small))
  if (!hasSearchFilter(filter)) return index.query(qv, CANDIDATES)
  const wide = index.query(qv, WIDE)
  const pass = new Set(searchFilterIds(db, filter, wide.map((n) => n.id)))
  const kept = wide.filter((n) => pass.has(n.id)).slice(0, CANDIDATES)
  if (kept.length >= 50 || wide.length < WIDE) return kept
  return index.query(qv, CANDIDATES, new Set(searchFilteredIds(db, filter)))
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i] * b[i]
  return s
}

/**
 * The meaning half: the query's nearest posts in `index`, without those the encoder cannot read, and
 * only those close to the best match (loosely related posts sit near the floor, 0.35-0.4 by model).
 */
export async function semanticCandidates(db: Db, index: SemanticIndex, qv: Float32Array, q: Understanding, small: number[] | null,
  blankVector: () => Promise<Float32Array | null>): Promise<Candidate[]> {
  let nearest = nearestPassing(db, index, qv, q.filter, small)
  const blankV = index.model === LOCAL_EMBEDDING_MODEL && nearest.length ? await blankVector() : null
  if (blankV) nearest = withoutBlank(nearest, index.query(blankV, nearest.length, new Set(nearest.map((n) => n.id))), dot(qv, blankV), q.typo)
  const floor = Math.max(index.cosineFloor ?? COSINE_FLOOR, (nearest[0]?.score ?? 0) - SEMANTIC_BAND)
  return nearest.filter((n) => n.score >= floor)
}

/** The encoder's vector of text it cannot read, once per index (null if it failed: nothing is dropped). */
export function blankVectorOf(): (index: SemanticIndex) => Promise<Float32Array | null> {
  let blank: Promise<Float32Array | null> | null = null
  return (index) => (blank ??= index.embedQuery(BLANK_TEXT).catch(() => (blank = null)))
}
