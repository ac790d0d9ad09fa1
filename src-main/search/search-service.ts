import type { QuickResult, SearchResponse, SearchResult } from '../../src-shared/schemas/search.ts'
import {
  isOpen,
  categoryForSearch, dataStamp, searchFilterIds, searchMatchingAmong, searchPostCount, hasSearchFilter, searchDocuments, searchFilteredIds, searchHasMatch, searchLexical, searchNewest,
  searchFtsQueueSize, searchIndexQueued, searchMatchCount, searchQuick, searchReindexRows, searchVocabulary, transaction, type Db, type SearchDocument, type SearchFilter,
} from '../store/faces/search.ts'
import { createEncoderEmbedder, createLocalEmbedder, type Embedder } from './embedder.ts'
import { bookmarksForHits } from './hits.ts'
import { approxBm25, COSINE_FLOOR, lexicalEvidence, relevanceOf, sentence, surface, type TermMatcher } from './explain.ts'
import { phraseExpr, quickExpr, termExpr } from './fts-query.ts'
import { parseQuery } from './query-parser.ts'
import { BLANK_TEXT, hasTypo, meaningText, semanticWeight, withoutBlank } from './query-meaning.ts'
import { LOCAL_EMBEDDING_MODEL } from '../ai/index.ts'
import { describe, filterReasons, titleOf } from './understood.ts'
import { applyOrder, runRerank, type Reranker } from './rerank.ts'
import { createProviderSemantic } from './provider-semantic.ts'
import { createSemanticIndex, type SemanticIndex } from './semantic.ts'
import { createSpeller, loadDictionary, type Speller } from './spelling.ts'

export interface SearchDeps {
  db: Db
  clock?: () => number
  /** Defaults to the offline word-vector embedder: the fallback until the sentence encoder's vectors cover the library. */
  embedder?: Embedder
  /** The sentence encoder (vectors from the pipeline); null turns it off. Defaults to a worker of its own. */
  encoder?: Embedder | null
  /**
   * The active provider's embedding model, resolved per search (null = none). Its stored vectors are
   * used once they cover the library; until then, and whenever it fails, the embedder above answers.
   */
  providerEmbedder?: () => Promise<Embedder | null>
  /** How long a query waits for the provider's embedding of its words. */
  embedTimeoutMs?: number
  /** A fixed reranker, or a function resolving one per search (the active provider's; null = none). */
  reranker?: Reranker | null | (() => Promise<Reranker | null>)
  rerankTimeoutMs?: number
  /** How many fused candidates the reranker sees. */
  rerankCandidates?: number
  /** Time a query may spend catching up on queued vector updates before answering. */
  catchUpBudgetMs?: number
  /** Off in benchmarks that measure the halves alone. */
  mode?: SearchMode
  log?: { warn(msg: string, e?: unknown): void }
}

export type SearchMode = 'fused' | 'lexical' | 'semantic'

export interface SearchOptions {
  limit: number
  mode?: SearchMode
}

export interface Search {
  search(q: string, opts: SearchOptions): Promise<SearchResponse>
  quick(q: string, limit: number): { results: QuickResult[]; query: string }
  /** Re-derives the FTS rows and vectors of these posts now (triggers already do this on every write). */
  reindex(bookmarkIds: readonly number[]): void
  /** Computes every missing or stale sentence vector (local: at once; a provider's model: batched). */
  backfillEmbeddings(opts?: { signal?: AbortSignal }): Promise<{ embedded: number }>
  /** Applies queued vector updates now; returns how many remain. */
  catchUp(budgetMs?: number): number
  /** Indexes queued new posts for words now; returns how many remain. */
  indexQueued(budgetMs?: number): number
  /** Schedules background indexing of queued posts (e.g. right after an import). */
  kick(): void
  /** The vector scan runs in WebAssembly SIMD (false: the plain JS fallback). */
  readonly simd: boolean
  close(): void
}

const RRF_K = 60
/** Posts scored by BM25 at most (the newest matches); a word in more posts than COMMON is common. */
const SCORE_CAP = 500
const COMMON = 2000
/** Neighbours checked against a filter before searching within the filter's own posts. */
const WIDE = 1000
/** A filter allowing at most this many posts is applied before scoring. */
const NARROW_MAX = 2000
const SEMANTIC_BAND = 0.2
const CANDIDATES = 200
/**
 * Background indexing runs in short slices (a batch takes a few ms), so requests arriving meanwhile
 * wait little: after a 100,000-post import it overlaps the pipeline's first stage for a minute.
 */
const BACKGROUND_SLICE_MS = 10
const RETRY_MS = 1000
const INDEX_BATCH = 64
const SPELLER_MAX_AGE_MS = 10_000

export function createSearch(deps: SearchDeps): Search {
  const { db } = deps
  const clock = deps.clock ?? Date.now
  const semantic = createSemanticIndex({ db, embedder: deps.embedder ?? createLocalEmbedder() })
  const budget = deps.catchUpBudgetMs ?? 20
  const side = createProviderSemantic({ db, log: deps.log })
  const encoder = deps.encoder === undefined ? createEncoderEmbedder() : deps.encoder
  /**
   * The best vector index that covers the library: the provider's embedding model when configured and
   * ready, else the sentence encoder's (once the pipeline has embedded the library), else null (the
   * word-vector index answers).
   */
  const providerIndex = async (): Promise<SemanticIndex | null> => {
    try {
      const e = await deps.providerEmbedder?.()
      const ready = e ? side.ready(e) : null
      if (ready) return ready
    } catch (e) {
      deps.log?.warn('search: could not resolve the embedding model; using the local vectors', e)
    }
    return encoder ? side.ready(encoder) : null
  }
  const resolveReranker = async (): Promise<Reranker | null> => {
    const r = deps.reranker
    if (typeof r !== 'function') return r ?? null
    try {
      return await r()
    } catch (e) {
      deps.log?.warn('search: could not resolve the reranker; searching offline', e)
      return null
    }
  }
  let blank: Promise<Float32Array | null> | null = null
  /** The encoder's vector of text it cannot read, once per search service (null if it failed: nothing is dropped). */
  const blankVector = (index: SemanticIndex) => (blank ??= index.embedQuery(BLANK_TEXT).catch(() => (blank = null)))
  let speller: { at: number; stamp: string; s: Speller } | null = null
  const dictionary = loadDictionary()
  let closed = false
  let timer: NodeJS.Timeout | null = null

  /** New posts are indexed here, in batches, not inside the importer's transaction (see migration 0002). */
  const indexQueued = (budgetMs: number): number => {
    const until = performance.now() + budgetMs
    while (searchIndexQueued(db, INDEX_BATCH) > 0) if (performance.now() >= until) return searchFtsQueueSize(db)
    return 0
  }

  /**
   * Any of the words, rarest first, while together they hold at most COMMON posts; commoner words are
   * left to coverage and the semantic half: scoring every post that says "make" costs ~10 µs each and buys nothing.
   */
  /**
   * BM25 as FTS5 computes it (column weights inside the saturation, document length taken as
   * average) for the few posts of a narrow filter: FTS5 can only score while walking a whole doclist.
   */
  const scoreAmong = (match: string, ids: number[], matchers: TermMatcher[], phrases: string[], counts: Map<string, number>) => {
    // A few hundred posts are read and matched here; more are first narrowed by the index.
    const hits = ids.length <= 300 ? ids : searchMatchingAmong(db, match, ids).slice(0, CANDIDATES * 2)
    const n = searchPostCount(db)
    return searchDocuments(db, hits).map((d) => ({ id: d.id, score: approxBm25(d, matchers, phrases, counts, n) }))
      .filter((x) => x.score > 0).sort((a, b) => b.score - a.score).slice(0, CANDIDATES)
  }

  const lexicalMatch = (matchers: TermMatcher[], phrases: string[]): { match: string; counts: Map<string, number> } => {
    const exprs = [...matchers.map((m) => (m.corrected ? `"${m.corrected}"*` : termExpr(m.term))), ...phrases.map(phraseExpr)].filter(Boolean)
    const counted = exprs.map((e) => ({ e, n: searchMatchCount(db, e, COMMON + 1) })).filter((x) => x.n > 0).sort((a, b) => a.n - b.n)
    // The rarest word always; more while together they stay under COMMON posts.
    const used = counted.filter((x, i) => i === 0 || counted.slice(0, i + 1).reduce((s, y) => s + y.n, 0) <= COMMON)
    return { match: used.map((x) => x.e).join(' OR '), counts: new Map(counted.map((x) => [x.e, x.n])) }
  }

  /**
   * Nearest posts that pass the filter: the best 1000 checked against it (cheap for broad filters
   * such as dates or media); a narrow filter that leaves too few is searched within its own posts.
   */
  const nearestPassing = (semantic: SemanticIndex, qv: Float32Array, filter: SearchFilter) => {
    if (!hasSearchFilter(filter)) return semantic.query(qv, CANDIDATES)
    const wide = semantic.query(qv, WIDE)
    const pass = new Set(searchFilterIds(db, filter, wide.map((n) => n.id)))
    const kept = wide.filter((n) => pass.has(n.id)).slice(0, CANDIDATES)
    if (kept.length >= 50 || wide.length < WIDE) return kept
    return semantic.query(qv, CANDIDATES, new Set(searchFilteredIds(db, filter)))
  }

  let failing = false
  /** Indexes queued posts a slice at a time between requests; a failed slice (say, another writer holding the lock) is retried a second later. */
  const background = (delayMs = 5) => {
    if (timer || closed) return
    timer = setTimeout(() => {
      timer = null
      if (closed || !isOpen(db)) return
      try {
        const more = indexQueued(BACKGROUND_SLICE_MS) > 0 || semantic.catchUp(BACKGROUND_SLICE_MS) > 0
        failing = false
        if (more) background()
      } catch (e) {
        if (!failing) deps.log?.warn('search: could not update the index; retrying', e)
        failing = true
        background(RETRY_MS)
      }
    }, delayMs)
    timer.unref()
  }
  background()

  // The vocabulary is re-read when the library changed, at most every few seconds unless a word found no match.
  const correct = (word: string): string | null => {
    const stamp = dataStamp(db)
    const fresh = () => (speller = { at: performance.now(), stamp, s: createSpeller(searchVocabulary(db)) })
    if (!speller || (speller.stamp !== stamp && performance.now() - speller.at > SPELLER_MAX_AGE_MS)) fresh()
    const hit = speller!.s.correct(word)
    if (hit !== null || speller!.stamp === stamp) return hit
    return fresh().s.correct(word)
  }

  async function search(raw: string, opts: SearchOptions): Promise<SearchResponse> {
    const mode = opts.mode ?? deps.mode ?? 'fused'
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
    if (indexQueued(budget) + semantic.catchUp(budget) > 0) background()

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
    const semanticText = meaningText(p.text, corrections)
    const typo = hasTypo(corrections.length, unknownWords)
    const meaningWeight = semanticWeight(typo)

    const understood = describe(p, cat, corrections, notes)
    const hasText = matchers.length > 0 || p.phrases.length > 0
    let ranked: Array<{ id: number; bm25: number | null; cosine: number | null; rrf: number }>
    let used = semantic
    if (!hasText) {
      ranked = searchNewest(db, filter, opts.limit).map((id) => ({ id, bm25: null, cosine: null, rrf: 0 }))
    } else {
      const { match, counts } = lexicalMatch(matchers, p.phrases)
      // A narrow filter (an author, a category, a phrase) is applied first: scoring is then done on its few posts.
      const narrow = filter.author !== undefined || filter.categoryId !== undefined || (filter.mustMatch?.length ?? 0) > 0
        ? searchFilteredIds(db, filter) : null
      const small = narrow !== null && narrow.length <= NARROW_MAX ? narrow : null
      let lexical: Array<{ id: number; score: number }> = []
      if (mode !== 'semantic' && match) {
        lexical = small ? scoreAmong(match, small, matchers, p.phrases, counts) : searchLexical(db, match, filter, CANDIDATES, SCORE_CAP)
      }
      let nearest: Array<{ id: number; score: number }> = []
      if (mode !== 'lexical' && matchers.length > 0) {
        try {
          let qv: Float32Array | null = null
          const remote = await providerIndex()
          if (remote) {
            try {
              qv = await remote.embedQuery(semanticText, AbortSignal.timeout(deps.embedTimeoutMs ?? 3000))
              used = remote
            } catch (e) {
              deps.log?.warn(`search: ${remote.model} could not embed the query; used the local vectors`, e)
            }
          }
          qv ??= await semantic.embedQuery(semanticText)
          nearest = small ? used.query(qv, CANDIDATES, new Set(small)) : nearestPassing(used, qv, filter)
          const blankV = used.model === LOCAL_EMBEDDING_MODEL && nearest.length ? await blankVector(used) : null
          if (blankV) nearest = withoutBlank(nearest, used.query(blankV, nearest.length, new Set(nearest.map((n) => n.id))), dot(qv, blankV), typo)
          // Loosely related posts sit near the floor (0.35-0.4 by model); keep those close to the best match only.
          const floor = Math.max(used.cosineFloor ?? COSINE_FLOOR, (nearest[0]?.score ?? 0) - SEMANTIC_BAND)
          nearest = nearest.filter((n) => n.score >= floor)
        } catch (e) {
          deps.log?.warn('search: the embedding model failed; lexical results only', e)
          notes.push('Meaning-based matching was unavailable for this search; results match your words only.')
        }
      }
      ranked = fuse(lexical, nearest)
    }

    const reranker = hasText ? await resolveReranker() : null
    const pool = ranked.slice(0, Math.max(opts.limit, reranker ? (deps.rerankCandidates ?? 20) : 0, 30))
    const docs = new Map(searchDocuments(db, pool.map((r) => r.id)).map((d) => [d.id, d]))
    const filterParts = filterReasons(p, cat)
    let scored = pool.filter((r) => docs.has(r.id)).map((r) => {
      const doc = docs.get(r.id)!
      const lex = lexicalEvidence(doc, matchers, p.phrases)
      const parts = [...lex.reasonParts]
      if (r.cosine !== null && r.cosine >= COSINE_FLOOR) parts.push('similar in meaning to your search')
      const hint = p.mediaHints.find((h) => (h === 'image' && doc.hasImage) || (h === 'video' && doc.hasVideo))
      if (hint) parts.push(`has ${hint === 'image' ? 'an image' : 'a video'}, as your words suggest`)
      parts.push(...filterParts)
      const relevance = hasText
        ? relevanceOf({ bm25: r.bm25, cosine: r.cosine, ...lex }, matchers.length + p.phrases.length, meaningWeight)
        : 1
      return { id: r.id, doc, relevance, reason: sentence(parts), rrf: r.rrf + (hint ? 0.5 / RRF_K : 0) }
    })
    // Results are shown in the order of the relevance they show; RRF settles ties.
    if (hasText) scored.sort((a, b) => b.relevance - a.relevance || b.rrf - a.rrf)

    let rerank: SearchResponse['rerank'] = 'off'
    if (reranker && scored.length > 1) {
      const cands = scored.slice(0, deps.rerankCandidates ?? 20)
      const outcome = await runRerank(reranker, raw, cands.map((c) => rerankCandidate(c.doc)), deps.rerankTimeoutMs ?? 8000)
      if (outcome.state === 'applied') {
        rerank = 'applied'
        const reordered = applyOrder(cands, outcome.order)
        scored = [...reordered, ...scored.slice(cands.length)]
        // The model's order stands; a result never shows more relevance than the one above it.
        for (let i = 1; i < scored.length; i++) scored[i].relevance = Math.min(scored[i].relevance, scored[i - 1].relevance)
      } else {
        rerank = 'failed'
        deps.log?.warn(`search: reranking with ${reranker.name} failed (${outcome.error}); kept the fused order`)
        notes.push('The AI model could not rerank these results; they are in the offline order.')
      }
    }

    const top = scored.slice(0, opts.limit)
    const bookmarks = transaction(db, () => bookmarksForHits(db, top.map((t) => t.id)))
    const results: SearchResult[] = top.filter((t) => bookmarks.has(t.id))
      .map((t) => ({ bookmark: bookmarks.get(t.id)!, relevance: t.relevance, reason: t.reason }))
    return { results, query: raw, limit: opts.limit, understood, rerank, semanticModel: used.model }
  }

  return {
    search,
    quick(q, limit) {
      indexQueued(budget)
      const expr = quickExpr(q)
      const rows = expr ? searchQuick(db, expr, limit) : []
      return { query: q, results: rows.map((r) => ({ id: r.id, title: titleOf(r.text), authorHandle: r.authorHandle, authorName: r.authorName })) }
    },
    reindex(ids) {
      transaction(db, () => searchReindexRows(db, ids))
      semantic.catchUp(Infinity)
    },
    indexQueued: (budgetMs = Infinity) => indexQueued(budgetMs),
    kick: () => background(),
    get simd() {
      return semantic.simd
    },
    backfillEmbeddings: (opts) => semantic.backfill(opts),
    catchUp: (budgetMs = Infinity) => semantic.catchUp(budgetMs),
    close() {
      closed = true
      side.close()
      void encoder?.close?.()
      if (timer) clearTimeout(timer)
      timer = null
    },
  }
}

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i] * b[i]
  return s
}

function fuse(lexical: Array<{ id: number; score: number }>, nearest: Array<{ id: number; score: number }>) {
  const byId = new Map<number, { id: number; bm25: number | null; cosine: number | null; rrf: number }>()
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

function rerankCandidate(d: SearchDocument) {
  const extra = [d.summary, d.tags?.replace(/\|/g, ', '), d.ocr?.slice(0, 300)].filter(Boolean).join(' | ')
  return { id: d.id, text: d.text.slice(0, 600), authorHandle: d.author.split(' ')[0], extra }
}
