import type { QuickResult, SearchResponse, SearchResult } from '../../src-shared/schemas/search.ts'
import type { AiProvider } from '../ai/index.ts'
import { databaseFile, hasSearchFilter, readTransaction, searchDocuments, searchNewest, searchQuick, searchReindexRows, transaction, type Db, type SearchDocument } from '../store/index.ts'
import { blankVectorOf, fuse, lexicalCandidates, narrowPosts, semanticCandidates, type Candidate, type Fused } from './candidates.ts'
import { createEncoderEmbedder, createLocalEmbedder, type Embedder } from './embedder.ts'
import { explainResults, mediaOfPool } from './explain-results.ts'
import { broadPosts } from './filter-sets.ts'
import { bookmarksForHits, titleOf } from './hits.ts'
import { createIndexCatchUp } from './index-catch-up.ts'
import { createProviderSemantic, providerEmbedder } from './provider-semantic.ts'
import { createQueryUnderstanding, quickExpr, type Understanding } from './query-understanding.ts'
import { applyOrder, providerReranker, runRerank, type Reranker } from './rerank.ts'
import { createSemanticIndex, type SemanticIndex } from './semantic.ts'
import { createWordMemory, type WordSearch } from './word-memory-keeper.ts'
import { createScanThread, type FlatIndex } from '../vectors/index.ts'

export interface SearchDeps {
  db: Db
  clock?: () => number
  /** Defaults to the offline word-vector embedder: the fallback until the sentence encoder's vectors cover the library. */
  embedder?: Embedder
  /** The sentence encoder (vectors from the pipeline); null turns it off. Defaults to the process's one model. */
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
  /** Off in benchmarks that measure the halves alone. */
  mode?: SearchMode
  log?: { warn(msg: string, e?: unknown): void; info?(msg: string): void }
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
  /** IndexCatchUp.indexQueuedInSlices: an import's posts indexed for words before it commits. */
  indexQueuedInSlices(posts: number): Promise<void>
  /** Schedules background indexing of queued posts (e.g. right after an import); reads the word vectors if search will now need them. */
  kick(): void
  /** The writes are over (a pipeline job ended): the word index is merged once caught up, not after a minute of quiet. */
  writesEnded(): void
  /**
   * The sentence encoder's vector index once it has read every vector stored now (made and read here if
   * no search has needed it yet); null for another model or without the encoder. Stage 4 borrows its rows.
   */
  vectorsOf(model: string): Promise<FlatIndex | null>
  /** The vector scan runs in WebAssembly SIMD (false: the plain JS fallback). */
  readonly simd: boolean
  /** The word index in memory (word-memory-keeper.ts): copies read so far, and the bytes the current one holds. */
  readonly words: { readonly built: number; readonly bytes: number }
  /** Resolves once no thread of search's holds a connection to the library. */
  close(): Promise<void>
}

/**
 * Search in four steps: understand the query (query-understanding.ts), let each half propose
 * candidates and fuse them into one list (candidates.ts), explain and order them (explain-results.ts);
 * then the optional reranker (rerank.ts) and the posts' list-item shape (hits.ts). The indexes are
 * kept current between requests (index-catch-up.ts).
 */
export function createSearch(deps: SearchDeps): Search {
  const { db } = deps
  // Whole-index vector scans run on a thread of their own (scan-thread.ts); a library in memory (tests) scans inline.
  const scans = databaseFile(db) ? createScanThread({ log: deps.log }) : null
  const semantic = createSemanticIndex({ db, embedder: deps.embedder ?? createLocalEmbedder(), scans })
  const side = createProviderSemantic({ db, log: deps.log, scans })
  const encoder = deps.encoder === undefined ? createEncoderEmbedder() : deps.encoder
  const understand = createQueryUnderstanding({ db, clock: deps.clock ?? Date.now })
  const indexes = createIndexCatchUp({ db, semantic, log: deps.log })
  const words = createWordMemory({ db, log: deps.log })
  const blankVector = blankVectorOf()
  /**
   * The word vectors answer while the encoder's do not cover the library: read at start then, and once
   * an import outgrows them, before a search needs them. Otherwise they are read when something does (a
   * provider failing back to them), the catch-up writing them meanwhile.
   */
  const wordVectorsIfNeeded = () => {
    if (!encoder || !side.covers(encoder)) semantic.preload()
  }
  wordVectorsIfNeeded()
  indexes.kick()
  // Nothing has written yet: a library closed within a minute of its last write (a job's end) was left
  // in many b-trees, and every search cost 2-3x until the periodic look merged it a minute later.
  indexes.writesEnded()
  words.writesEnded()

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

  /**
   * The index's vector for the query, aborted after `ms`. The timer ends with the answer: AbortSignal.timeout's
   * ran on for its whole time after every search and, firing, made a DOMException each (0.7% of the HTTP thread).
   */
  const embedWithin = async (index: SemanticIndex, text: string, ms: number): Promise<Float32Array> => {
    const ctl = new AbortController()
    const timer = setTimeout(() => ctl.abort(new DOMException(`The query was not embedded within ${ms} ms.`, 'TimeoutError')), ms)
    timer.unref()
    try {
      return await index.embedQuery(text, ctl.signal)
    } finally {
      clearTimeout(timer)
    }
  }

  /** The query's vector from the best index that can embed it now; the word vectors when a provider fails. */
  const queryVector = async (text: string): Promise<{ index: SemanticIndex; qv: Float32Array }> => {
    const remote = await providerIndex()
    if (remote) {
      try {
        return { index: remote, qv: await embedWithin(remote, text, deps.embedTimeoutMs ?? 3000) }
      } catch (e) {
        deps.log?.warn(`search: ${remote.model} could not embed the query; used the local vectors`, e)
      }
    }
    return { index: semantic, qv: await semantic.embedQuery(text) }
  }

  const retrieve = async (q: Understanding, mode: SearchMode, queued: boolean, inMemory: WordSearch | null): Promise<{ ranked: Fused[]; model: string }> => {
    const small = narrowPosts(db, q.filter)
    const broad = small === null && hasSearchFilter(q.filter) ? broadPosts(db, q.filter) : null
    const lexical = mode !== 'semantic' ? lexicalCandidates(db, q, small, queued, { broad, words: inMemory }) : []
    let nearest: Candidate[] = []
    let model = semantic.model
    if (mode !== 'lexical' && q.matchers.length > 0) {
      try {
        const { index, qv } = await queryVector(q.semanticText)
        model = index.model
        nearest = await semanticCandidates(db, index, qv, q, small, () => blankVector(index), broad)
        if (index.loading) q.notes.push('Search by meaning is still loading; posts it has not reached yet are found by your words only.')
      } catch (e) {
        deps.log?.warn('search: the embedding model failed; lexical results only', e)
        q.notes.push('Meaning-based matching was unavailable for this search; results match your words only.')
      }
    }
    return { ranked: fuse(lexical, nearest), model }
  }

  async function search(raw: string, opts: SearchOptions): Promise<SearchResponse> {
    const mode = opts.mode ?? deps.mode ?? 'fused'
    const queued = indexes.beforeQuery()
    // The word index's copy, if current, for the whole search: its stamp is read once.
    const inMemory = words.current()
    const q = understand(raw, inMemory)
    const { ranked, model } = q.hasText
      ? await retrieve(q, mode, queued, inMemory)
      : { ranked: searchNewest(db, q.filter, opts.limit).map((id) => ({ id, bm25: null, cosine: null, rrf: 0 })), model: semantic.model }

    const reranker = q.hasText ? await resolveReranker() : null
    const pool = ranked.slice(0, Math.max(opts.limit, reranker ? (deps.rerankCandidates ?? 20) : 0, 30))
    const ids = pool.map((r) => r.id)
    const docs = new Map(searchDocuments(db, ids).map((d) => [d.id, d]))
    let scored = explainResults(pool, docs, q, mediaOfPool(db, ids, q))

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
        q.notes.push('The AI model could not rerank these results; they are in the offline order.')
      }
    }

    const top = scored.slice(0, opts.limit)
    const bookmarks = readTransaction(db, () => bookmarksForHits(db, top.map((t) => t.id)))
    const results: SearchResult[] = top.filter((t) => bookmarks.has(t.id))
      .map((t) => ({ bookmark: bookmarks.get(t.id)!, relevance: t.relevance, reason: t.reason }))
    return { results, query: raw, limit: opts.limit, understood: q.understood, rerank, semanticModel: model }
  }

  return {
    search,
    quick(q, limit) {
      indexes.beforeQuery()
      const expr = quickExpr(q)
      const rows = expr ? searchQuick(db, expr, limit) : []
      return { query: q, results: rows.map((r) => ({ id: r.id, title: titleOf(r.text), authorHandle: r.authorHandle, authorName: r.authorName })) }
    },
    reindex(ids) {
      transaction(db, () => searchReindexRows(db, ids))
      semantic.catchUp(Infinity)
    },
    indexQueued: (budgetMs = Infinity) => indexes.indexQueued(budgetMs),
    indexQueuedInSlices: (posts) => indexes.indexQueuedInSlices(posts),
    kick() {
      wordVectorsIfNeeded()
      indexes.kick()
    },
    writesEnded: () => {
      indexes.writesEnded()
      words.writesEnded()
    },
    vectorsOf: async (model) => (encoder?.model === model ? side.indexOf(encoder).current() : null),
    get simd() {
      return semantic.simd
    },
    words,
    backfillEmbeddings: (opts) => semantic.backfill(opts),
    catchUp: (budgetMs = Infinity) => semantic.catchUp(budgetMs),
    async close() {
      indexes.close()
      side.close()
      await Promise.all([words.close(), scans?.close()])
    },
  }
}

/**
 * The active provider's reranker and embedding model, resolved at each search from the settings of
 * the time, so a provider configured (or switched off) after start applies to the next search. A
 * provider that cannot be built (no key stored) means none, not a failed search.
 */
export function activeReranker(activeProvider: () => Promise<AiProvider | null>, warn?: (msg: string, e?: unknown) => void): () => Promise<Reranker | null> {
  return perSearch(activeProvider, providerReranker, warn)
}

/** Null with local, anthropic, claude-cli or no embedding model; a provider that cannot be built is passed over silently. */
export function activeEmbedder(activeProvider: () => Promise<AiProvider | null>): () => Promise<Embedder | null> {
  return perSearch(activeProvider, providerEmbedder)
}

function perSearch<T>(activeProvider: () => Promise<AiProvider | null>, adapt: (p: AiProvider) => T | null, warn?: (msg: string, e?: unknown) => void) {
  return async (): Promise<T | null> => {
    try {
      const p = await activeProvider()
      return p ? adapt(p) : null
    } catch (e) {
      warn?.('search: the configured AI provider is unavailable; searching offline', e)
      return null
    }
  }
}

function rerankCandidate(d: SearchDocument) {
  const extra = [d.summary, d.tags?.replace(/\|/g, ', '), d.ocr?.slice(0, 300)].filter(Boolean).join(' | ')
  return { id: d.id, text: d.text.slice(0, 600), authorHandle: d.author.split(' ')[0], extra }
}
