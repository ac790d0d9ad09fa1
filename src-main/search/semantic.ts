import {
  decodeInto, isOpen, searchEmbeddingInputs, searchEmbeddingsChanged, searchEmbeddingsRemoved, searchEmbeddingVersion,
  searchIdsWithoutEmbedding, searchPostCount, searchQueuePeek, searchQueueSize, transaction, transactionIfFree, writeEmbedding, type Db, type SearchStoredEmbedding,
} from '../store/index.ts'
import type { Embedder, LocalEmbedderOptions } from './embedder.ts'
import { inputHash, writeQueuedVectors } from './queued-vectors.ts'
import { createFlatIndex, simdAvailable, type AllowedIds, type FlatIndex, type ScanThread } from '../vectors/index.ts'

/**
 * The in-memory vector index of one embedding model, loaded once from the embeddings table and then
 * kept current from search_queue (filled by triggers when a post's words, tags, summary or image
 * text change). Local vectors missing or stale are computed here, or for a long backlog on the vector
 * thread (vector-thread.ts), whose writes readWritten() reads; a remote model's are written by the
 * pipeline (or backfill()) and picked up through the queue or reindex().
 */
export interface SemanticIndex {
  readonly model: string
  /** Below this cosine a neighbour is unrelated (the model's own scale). */
  readonly cosineFloor?: number
  /**
   * Applies queued changes for up to `budgetMs`; returns how many remain. `ifFree`: stops, leaving
   * them queued, when another connection holds the write lock, instead of waiting for it.
   */
  catchUp(budgetMs: number, opts?: { ifFree?: boolean }): number
  /** Embeds every post lacking a current vector (batches through the embedder), then catches up. */
  backfill(opts?: { batch?: number; signal?: AbortSignal }): Promise<{ embedded: number }>
  /** The nearest posts (FlatIndex.searchFar: on the scan thread when there is one, seeing every write made before). */
  query(vector: Float32Array, k: number, allowed?: AllowedIds): Promise<Array<{ id: number; score: number }>>
  /** A post's score against a query asked of every search (FlatIndex.keptScores: kept per row; 0 where none is held). */
  keptScores(vector: Float32Array): Promise<(id: number) => number>
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>
  /**
   * Starts reading the stored vectors, one slice per turn of the event loop (query() starts it too and
   * answers from the vectors read so far). A side index (no queue of its own) also reads, here, the
   * vectors written or removed since its last pass (embeddings.seq and embedding_removals). Nothing
   * else starts it: catchUp() writes the queued posts' vectors to the table, and holds them in memory
   * only once the index has started reading (the word vectors of a library the sentence encoder
   * covers are never read).
   */
  preload(): void
  /** True until every vector stored when the index was first used has been read (and before it is used). */
  readonly loading: boolean
  /**
   * Reads the vectors written or removed since its last pass by another connection (the vector
   * thread), a slice per turn of the event loop; one call during a pass reads again after it.
   */
  readWritten(): void
  /** How the vector thread makes the same embedder (its queue is then caught up there); absent when it cannot. */
  readonly onThread?: LocalEmbedderOptions
  /**
   * Resolves once every vector stored at the call has been read (reading them now, a slice per turn of
   * the event loop, if need be): the index then, or null when it holds none or the database closed.
   */
  current(): Promise<FlatIndex | null>
  readonly size: number
  readonly simd: boolean
}

const QUERY_CACHE = 256

/** Rows for a library of `posts`: all of them and a sixteenth more for the posts saved next. */
export const roomFor = (posts: number): number => Math.max(4096, Math.ceil(posts * 17 / 16))
/**
 * Vectors read per turn of the event loop while an index loads (at most ~1 MB of 512-dim vectors). The
 * next slice is an unref'd timer, not an unref'd setImmediate: that one wakes no idle loop, so on a
 * server nobody used the slices ran only as other events came, and 100,000 vectors took a minute or more.
 */
const LOAD_SLICE = 500

export { inputHash }

let scratch = new Float32Array(0)

/**
 * A stored vector as floats, in one array reused by every call: the index quantizes it at once
 * (upsert), and loading 100,000 vectors left as many arrays of 2 KB to the collector.
 */
const toFloat = (e: SearchStoredEmbedding): Float32Array => {
  if (scratch.length !== e.dim) scratch = new Float32Array(e.dim)
  return decodeInto(e.vector, e.encoding, scratch)
}

/** `scans`: the search service's scan thread, where whole-index scans run (absent: on this thread). */
export function createSemanticIndex({ db, embedder, dim, ownsQueue = true, scans = null }:
  { db: Db; embedder: Embedder; dim?: number; ownsQueue?: boolean; scans?: ScanThread | null }): SemanticIndex {
  let index: FlatIndex | null = null
  /** Recent questions' vectors (least recently used first): the next page, a refined filter or a re-run costs no model call. */
  const queries = new Map<string, Float32Array>()
  /** Remote-model posts whose vector is missing or stale; backfill() embeds them. */
  const missing = new Set<number>()

  // Sized for the library at once: grown by doubling from a few thousand rows, a 100,000-post index
  // ended at room for 131,072, and each doubling held the old rows and the new ones together.
  const ensure = (d: number): FlatIndex => {
    if (!index) index = createFlatIndex({ dim: d, initialCapacity: roomFor(searchPostCount(db)), thread: scans })
    return index
  }

  /** Vector writes and removals applied so far (embedding_version's count; existing libraries' vectors have seq 0). */
  let readTo = -1
  /** The pass under way: the count it reads up to and the last vector read. */
  let pass: { to: number; after: { seq: number; row: number } } | null = null
  let reading = false
  let loaded = false
  /** Something has needed the vectors in memory (preload, query, backfill): until then none are held. */
  let started = false
  /** readWritten() was called during a pass: read again when it ends. */
  let again = false
  /**
   * A side index has no queue, and the vector thread empties this one's: either reads, here, what was
   * written or removed since its last pass.
   */
  const follows = !ownsQueue || embedder.onThread !== undefined

  /** Reads one slice of the vectors written since the last pass (removals first); false once the pass is done. */
  const readSlice = (): boolean => {
    if (!pass) {
      const to = searchEmbeddingVersion(db)
      for (const id of searchEmbeddingsRemoved(db, embedder.model, readTo, to)) { index?.remove(id); missing.delete(id) }
      pass = { to, after: { seq: readTo, row: Number.MAX_SAFE_INTEGER } }
    }
    const rows = searchEmbeddingsChanged(db, embedder.model, pass.after, pass.to, LOAD_SLICE)
    for (const r of rows) ensure(r.dim).upsert(r.bookmarkId, toFloat(r))
    const last = rows.at(-1)
    if (last && rows.length === LOAD_SLICE) {
      pass.after = { seq: last.seq, row: last.row }
      return true
    }
    readTo = pass.to
    pass = null
    return false
  }
  const slice = () => {
    reading = readSlice()
    if (!reading) {
      loaded = true
      if (again) readWritten()
    } else setTimeout(() => {
      try {
        if (isOpen(db)) slice()
        else reading = false
      } catch {
        reading = false // resumed by the next use
      }
    }, 0).unref()
  }
  const load = () => {
    started = true
    if (reading || (loaded && !(follows && searchEmbeddingVersion(db) > readTo))) return
    if (dim) ensure(dim)
    slice()
  }
  function readWritten() {
    again = reading
    // Not started: its first pass will read them.
    if (started && isOpen(db)) load()
  }

  /** Brings these posts' vectors up to date and removes deleted posts from memory (inside the caller's write transaction). */
  const refresh = (ids: number[]) => {
    const { dead, current, written, missing: later } = writeQueuedVectors(db, embedder, ids)
    for (const id of dead) { index?.remove(id); missing.delete(id) }
    for (const have of current) missing.delete(have.bookmarkId)
    for (const { id } of later) missing.add(id)
    if (!started) return
    for (const have of current) ensure(have.dim).upsert(have.bookmarkId, toFloat(have))
    for (const { id, vector } of written) ensure(vector.length).upsert(id, vector)
    // Keep a stale remote vector until the new one arrives: close beats absent.
    for (const { id, stale } of later) if (stale) ensure(stale.dim).upsert(id, toFloat(stale))
  }

  /**
   * One batch read, embedded and written in one write transaction; 'busy' (nothing done) when `ifFree`
   * and another connection holds the lock. Waiting for it in SQLite's busy handler blocks this thread
   * in sleeps of up to 100 ms: while the maintenance thread indexed words, a batch here held the HTTP
   * thread 40-120 ms (bench/load.ts, profiled).
   */
  const refreshBatch = (ifFree: boolean): 'done' | 'more' | 'busy' => {
    const ids = searchQueuePeek(db, 64)
    if (ids.length === 0) return 'done'
    if (!ifFree) transaction(db, () => refresh(ids))
    else if (!transactionIfFree(db, () => refresh(ids))) return 'busy'
    return 'more'
  }

  const catchUp = (budgetMs: number, { ifFree = false } = {}): number => {
    if (started) load()
    const until = performance.now() + budgetMs
    for (;;) {
      const step = refreshBatch(ifFree)
      if (step === 'done') return 0
      if (step === 'busy' || performance.now() >= until) return searchQueueSize(db)
    }
  }

  return {
    model: embedder.model,
    cosineFloor: embedder.cosineFloor,
    get size() {
      return index?.size ?? 0
    },
    get simd() {
      return index?.simd ?? simdAvailable()
    },
    get loading() {
      return !loaded
    },
    catchUp,
    preload: load,
    readWritten,
    onThread: embedder.onThread,
    async current() {
      const to = searchEmbeddingVersion(db)
      while (isOpen(db) && !(loaded && !reading && (!follows || readTo >= to))) {
        load()
        await new Promise((resolve) => setImmediate(resolve))
      }
      return isOpen(db) ? index : null
    },
    async backfill({ batch = 64, signal } = {}) {
      // search_queue has one reader (the index search was created with); a side index only backfills.
      if (ownsQueue) catchUp(Infinity)
      else load()
      if (embedder.embedNow || embedder.filledBy === 'pipeline') return { embedded: 0 }
      load()
      for (const id of searchIdsWithoutEmbedding(db, embedder.model)) missing.add(id)
      let embedded = 0
      while (missing.size > 0) {
        signal?.throwIfAborted()
        const ids = [...missing].slice(0, batch)
        const inputs = searchEmbeddingInputs(db, ids)
        const vectors = await embedder.embed(inputs.map((i) => i.input), signal)
        transaction(db, () => {
          inputs.forEach(({ id, input }, i) => {
            writeEmbedding(db, { bookmarkId: id, model: embedder.model, vector: vectors[i], contentHash: inputHash(input) })
            ensure(vectors[i].length).upsert(id, vectors[i])
          })
        })
        for (const id of ids) missing.delete(id)
        embedded += inputs.length
      }
      return { embedded }
    },
    async query(vector, k, allowed) {
      // What the vector thread writes is read by readWritten(), between requests, not inside this one.
      if (!loaded || !ownsQueue) load()
      return index ? index.searchFar(vector, k, allowed) : []
    },
    async keptScores(vector) {
      if (!loaded || !ownsQueue) load()
      return index ? index.keptScores(vector) : () => 0
    },
    async embedQuery(text, signal) {
      if (embedder.embedNow) return embedder.embedNow(text)
      const hit = queries.get(text)
      if (hit) {
        queries.delete(text)
        queries.set(text, hit)
        return hit
      }
      const [v] = await embedder.embed([text], signal)
      queries.set(text, v)
      if (queries.size > QUERY_CACHE) queries.delete(queries.keys().next().value!)
      return v
    },
  }
}
