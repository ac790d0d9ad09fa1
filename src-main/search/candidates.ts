import { LOCAL_EMBEDDING_MODEL } from '../ai/index.ts'
import { dot } from '../ai/local/index.ts'
import {
  hasSearchFilter, inTransaction, libraryStamp, searchBacklog, searchDocuments, searchFilteredIds, searchFilterIds, searchLexical, searchMatchCount, searchMatchingAmong,
  searchPostCount, searchQueuedMatching, type Db, type SearchFilter,
} from '../store/index.ts'
import { approxBm25, COSINE_FLOOR, type TermMatcher } from './evidence.ts'
import type { PostSet } from './filter-sets.ts'
import { phraseExpr, termExpr, type Understanding } from './query-understanding.ts'
import type { SemanticIndex } from './semantic.ts'
import type { WordSearch } from './word-memory-keeper.ts'

/** What a search holds in memory for the word half (either may be null: then SQL answers). */
export type InMemory = { broad?: PostSet | null; words?: WordSearch | null }

/**
 * Candidate retrieval: the posts each half of a search proposes, best first (the word half by BM25, the
 * meaning half by cosine), and their fusion into one list (`fuse`).
 */
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
 * One expression alone is used without counting its posts (unless `counted`: scoring posts outside the
 * index needs each word's count): the count could only choose it, or drop it when it matches nothing,
 * and BM25 then finds nothing either. `counts` is read when first asked for.
 */
function lexicalMatch(db: Db, matchers: TermMatcher[], phrases: string[], counted: boolean, words: WordSearch | null) {
  const exprs = [...matchers.map((m) => (m.corrected ? `"${m.corrected}"*` : termExpr(m.term))), ...phrases.map(phraseExpr)].filter(Boolean)
  let byCount: Array<{ e: string; n: number }> | null = null
  const count = (e: string) => words?.count(e, COMMON + 1) ?? searchMatchCount(db, e, COMMON + 1)
  const countAll = () => (byCount ??= exprs.map((e) => ({ e, n: count(e) })).filter((x) => x.n > 0).sort((a, b) => a.n - b.n))
  const counts = () => new Map(countAll().map((x) => [x.e, x.n]))
  if (exprs.length === 1 && !counted) return { match: exprs[0], used: exprs, counts }
  const rarest = countAll()
  // The rarest word always; more while together they stay under COMMON posts.
  const used = rarest.filter((x, i) => i === 0 || rarest.slice(0, i + 1).reduce((s, y) => s + y.n, 0) <= COMMON).map((x) => x.e)
  return { match: used.join(' OR '), used, counts }
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
 * pass over the queue and scored the same way. `queued` false: the search found nothing queued as it
 * began (IndexCatchUp.beforeQuery), so the queue is not counted again. `memory`: what the search holds in
 * memory: a broad filter's posts (filter-sets.ts), tested in JS on the walk instead of joined in SQL; the
 * word index (word-memory-keeper.ts, current), which answers a question of plain words, with a filter too
 * when the filter is minus words, one-word phrases or a broad filter's posts kept in memory.
 */
export function lexicalCandidates(db: Db, q: Understanding, small: number[] | null, queued = true, memory: InMemory = {}): Candidate[] {
  const { broad = null, words = null } = memory
  const { match, counts, used } = lexicalMatch(db, q.matchers, q.parsed.phrases, small !== null, words)
  let found: Candidate[] = []
  if (match && small) {
    // A few hundred posts are read and matched here; more are first narrowed by the index, unless the
    // filter's phrases are all the words used, which every one of them holds.
    const matching = small.length <= 300 || used.every((e) => q.filter.mustMatch?.includes(e)) ? small
      : words?.among(used, small) ?? searchMatchingAmong(db, match, small)
    found = scoreDocs(db, matching.slice(0, CANDIDATES * 2), q, counts())
  } else if (match) {
    // Under SCORE_CAP matches the cap leaves every match: no count is needed to choose it.
    found = words?.lexical(used, CANDIDATES, SCORE_CAP, q.filter, broad) ?? searchLexical(db, match, q.filter, CANDIDATES, SCORE_CAP, broad ?? undefined)
  }
  if (!queued || searchBacklog(db, 1).words === 0) return found
  const key = JSON.stringify([unindexedWords(q), q.filter, small?.length ?? null])
  // Reused matches may since have been indexed, and found above as well.
  const seen = new Set(found.map((c) => c.id))
  const unindexed = recentUnindexed(db, key, () => unindexedCandidates(db, q, counts(), small)).filter((c) => !seen.has(c.id))
  return [...found, ...unindexed].sort((a, b) => b.score - a.score).slice(0, CANDIDATES)
}

const unindexedWords = (q: Understanding): string[] => [...q.matchers.map((m) => m.corrected ?? m.term.replace(/\*+$/, '')), ...q.parsed.phrases]

function unindexedCandidates(db: Db, q: Understanding, counts: Map<string, number>, small: number[] | null): Candidate[] {
  let ids = searchQueuedMatching(db, unindexedWords(q), CANDIDATES)
  if (ids.length === 0) return []
  const allowed = new Set(small ?? (hasSearchFilter(q.filter) ? searchFilterIds(db, q.filter, ids) : ids))
  ids = ids.filter((id) => allowed.has(id))
  return scoreDocs(db, ids, q, counts)
}

/**
 * The filter's nearest CANDIDATES posts: searched among the filter's posts when they are known (a narrow
 * filter's few, a broad one's kept in memory), else the best 1000 checked against it (cheap for broad
 * filters such as media or minus words). When fewer than CANDIDATES of those pass (a year passes ~150),
 * the rest lie further out: the scan is made within the filter's posts, as a kept set's is, so a search
 * gets the same candidates whether or not the set is in memory yet (returning the ~150 moved a post in
 * or out of the first ten, depending on how soon a server had built the set).
 */
async function nearestPassing(db: Db, index: SemanticIndex, qv: Float32Array, filter: SearchFilter, small: number[] | null,
  broad: PostSet | null): Promise<Candidate[]> {
  if (small) return index.query(qv, CANDIDATES, new Set(small))
  if (!hasSearchFilter(filter)) return index.query(qv, CANDIDATES)
  if (broad) return index.query(qv, CANDIDATES, broad)
  const wide = await index.query(qv, WIDE)
  const kept = passing(db, filter, wide)
  if (kept.length === CANDIDATES || wide.length < WIDE) return kept
  return index.query(qv, CANDIDATES, new Set(searchFilteredIds(db, filter)))
}

/** Neighbours checked against a filter first: most filters pass most of them, and a check costs per id. */
const FIRST_CHECK = CANDIDATES * 2

/** The best CANDIDATES of `wide` that pass the filter, in order; the rest of `wide` is checked only when the first ones fall short. */
function passing(db: Db, filter: SearchFilter, wide: readonly Candidate[]): Candidate[] {
  const kept: Candidate[] = []
  for (const part of [wide.slice(0, FIRST_CHECK), wide.slice(FIRST_CHECK)]) {
    const pass = new Set(searchFilterIds(db, filter, part.map((n) => n.id)))
    kept.push(...part.filter((n) => pass.has(n.id)))
    if (kept.length >= CANDIDATES) break
  }
  return kept.slice(0, CANDIDATES)
}

/**
 * Text the encoder reads as nothing at all (a private-use character): emoji-only posts, scripts it
 * was not trained on and such all get this one vector, whatever they say.
 */
const BLANK_TEXT = '\uE000'
/** Posts at least this close to the blank vector say nothing the encoder can read. */
const BLANK_COSINE = 0.9

/**
 * Neighbours the encoder cannot read are not "similar in meaning" to anything: a short query sits
 * near the blank vector, so every post of emoji or another script would otherwise come back, all
 * with the same score. For a query with a typo (`typo`), whose vector leans toward the blank one,
 * cosines are also taken with the blank direction removed from the query and the post, so what two
 * texts share only by both being hard to read ("HODL") does not count. `blankOf`: a post's cosine with
 * the blank vector.
 */
function withoutBlank(nearest: Candidate[], blankOf: (id: number) => number, queryBlank: number, typo: boolean): Candidate[] {
  const qu = Math.min(queryBlank, 0.99)
  const kept: Candidate[] = []
  for (const n of nearest) {
    const u = blankOf(n.id)
    if (u >= BLANK_COSINE) continue
    kept.push(typo ? { id: n.id, score: (n.score - qu * u) / Math.sqrt((1 - qu * qu) * (1 - u * u)) } : n)
  }
  return typo ? kept.sort((a, b) => b.score - a.score) : kept
}

/**
 * Those of `nearest` (best first) at or above `floor` and within SEMANTIC_BAND of the best of them; without
 * a typo, also without the posts the encoder cannot read (withoutBlank), whose cosines are then read only
 * for posts above where the list is cut: the rest could not be kept either way.
 */
export function withinBand(nearest: Candidate[], floor: number, blank: { of: (id: number) => number; query: number; typo: boolean } | null): Candidate[] {
  if (blank?.typo) nearest = withoutBlank(nearest, blank.of, blank.query, true)
  const kept: Candidate[] = []
  for (const n of nearest) {
    if (n.score < Math.max(floor, (kept[0]?.score ?? n.score) - SEMANTIC_BAND)) break
    if (!blank || blank.typo || blank.of(n.id) < BLANK_COSINE) kept.push(n)
  }
  return kept
}

/**
 * The meaning half: the query's nearest posts in `index`, without those the encoder cannot read, and
 * only those close to the best match (loosely related posts sit near the floor, 0.35-0.4 by model).
 */
export async function semanticCandidates(db: Db, index: SemanticIndex, qv: Float32Array, q: Understanding, small: number[] | null,
  blankVector: () => Promise<Float32Array | null>, broad: PostSet | null = null): Promise<Candidate[]> {
  const nearest = await nearestPassing(db, index, qv, q.filter, small, broad)
  const blankV = index.model === LOCAL_EMBEDDING_MODEL && nearest.length ? await blankVector() : null
  const blank = blankV ? { of: await index.keptScores(blankV), query: dot(qv, blankV), typo: q.typo } : null
  return withinBand(nearest, index.cosineFloor ?? COSINE_FLOOR, blank)
}

/** The encoder's vector of text it cannot read, once per index (null if it failed: nothing is dropped). */
export function blankVectorOf(): (index: SemanticIndex) => Promise<Float32Array | null> {
  let blank: Promise<Float32Array | null> | null = null
  return (index) => (blank ??= index.embedQuery(BLANK_TEXT).catch(() => (blank = null)))
}

/** Reciprocal-rank fusion's constant: how much the first places count over the later ones. */
export const RRF_K = 60

export type Fused = { id: number; bm25: number | null; cosine: number | null; rrf: number }

/** One list from the two halves' ranked candidates, by reciprocal-rank fusion; each keeps its half's score. */
export function fuse(lexical: readonly Candidate[], nearest: readonly Candidate[]): Fused[] {
  const byId = new Map<number, Fused>()
  const entry = (id: number) => {
    let e = byId.get(id)
    if (!e) byId.set(id, (e = { id, bm25: null, cosine: null, rrf: 0 }))
    return e
  }
  lexical.forEach((l, i) => {
    const e = entry(l.id)
    e.bm25 = l.score
    e.rrf += 1 / (RRF_K + i + 1)
  })
  nearest.forEach((n, i) => {
    const e = entry(n.id)
    e.cosine = n.score
    e.rrf += 1 / (RRF_K + i + 1)
  })
  return [...byId.values()].sort((a, b) => b.rrf - a.rrf)
}

/** How long a query's matches among the posts not in the word index yet are reused (as a list's `q`, library/bookmarks.ts). */
const REUSE_MS = 1000
const KEEP = 50

type Entry = { found: Candidate[]; at: number; library: string }
const byDb = new WeakMap<Db, Map<string, Entry>>()

/**
 * A query's matches among the posts still waiting for the word index (a LIKE pass over the queue, then
 * BM25 scoring of each post's text), reused for up to a second while the library itself has not
 * changed (the index taking a post from the queue changes nothing a reader sees) or while an import's
 * transaction is open (its new posts show up within the second). During bench/load.ts's import every
 * search paid for both: 1.2 s of the HTTP thread in 9 s, a third of each search, while the thread had
 * no time left. An edit outside an import moves the library's stamp, and the next search looks afresh.
 */
export function recentUnindexed(db: Db, key: string, find: () => Candidate[]): Candidate[] {
  let recent = byDb.get(db)
  if (!recent) byDb.set(db, (recent = new Map()))
  const now = performance.now()
  const library = libraryStamp(db)
  const hit = recent.get(key)
  if (hit && now - hit.at < REUSE_MS && (hit.library === library || inTransaction(db))) return hit.found
  const found = find()
  recent.delete(key)
  if (recent.size >= KEEP) recent.delete(recent.keys().next().value!)
  recent.set(key, { found, at: now, library })
  return found
}
