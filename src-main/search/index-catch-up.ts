import { setImmediate as nextTurn } from 'node:timers/promises'
import {
  dataStamp, inTransaction, isOpen, searchBacklog, searchFtsQueueSize, searchIndexInBackground, searchIndexQueued, searchIndexSegments, searchMergeInBackground, type Db,
} from '../store/index.ts'
import { createPacer } from '../background/index.ts'
import type { SemanticIndex } from './semantic.ts'
import { startVectorThread, type VectorThread } from './vector-thread.ts'

/**
 * Keeps the word index (search_fts) and the vector index current with new and changed posts, in
 * short slices on the HTTP thread between requests, the vectors of a library on disk on the vector
 * thread (vector-thread.ts), which the slices ask to empty the queue while it is not empty. While requests are being answered the slices
 * take a quarter of the thread at most; a query never waits for more than one batch of catching up
 * (it answers from what is indexed, plus a lexical pass over posts not yet in the word index). A
 * backlog of words longer than BACKGROUND_FROM (an import) is indexed on the database's maintenance
 * thread instead: every search pays a pass over what is not indexed yet, so that pass must end soon.
 */
export interface IndexCatchUp {
  /**
   * Before a query: a backlog of one batch or less is caught up now; a longer one is left to the slices.
   * False when nothing was queued for either index (the query need not look for posts the word index lacks).
   */
  beforeQuery(): boolean
  /** Indexes queued new posts for words now, for up to `budgetMs`; returns how many remain. */
  indexQueued(budgetMs: number): number
  /**
   * Indexes up to `posts` queued posts for words on this thread, in slices with requests answered
   * between them: for an import before it commits (its posts are invisible to the maintenance thread).
   */
  indexQueuedInSlices(posts: number): Promise<void>
  /** Schedules the background slices (e.g. right after an import). */
  kick(delayMs?: number): void
  /**
   * The writes are over (a pipeline job ended): the word index is merged as soon as its queue is
   * empty, rather than after it stood unchanged for MERGE_CHECK_MS twice.
   */
  writesEnded(): void
  close(): void
}

export const INDEX_BATCH = 64
/** A slice of background indexing (a batch takes a few ms). */
const SLICE_MS = 10
/**
 * The share of the thread the slices take at most while requests are answered. The pause after a
 * slice follows what the slice took: a batch can overrun SLICE_MS (an FTS merge), and a fixed 30 ms
 * pause then gave the slices half the thread or more. The vector batches never wait for the write
 * lock here: while another connection holds it they stop and the next slice tries again.
 */
const BUSY_SHARE = 0.25
const IDLE_PAUSE_MS = 1
const RETRY_MS = 1000
/** While the vector thread empties the queue: how often a slice looks whether it needs asking again (an import's posts become visible to it at the commit). */
const VECTOR_LOOK_MS = 250
/**
 * The vector thread starts for a backlog this long (an import's): a shorter one costs this thread
 * ~0.05 ms a post in its slices, and its vectors are in the index at once, not after the thread has
 * started (a few hundred ms). Once started, the thread takes every backlog.
 */
export const THREAD_FROM = INDEX_BATCH * 8
/** The vector thread's batches are read into the index at most this often (its reports coalesced). */
const READ_WRITTEN_MS = 20
/**
 * A word backlog longer than a batch goes to the maintenance thread (unless a write transaction is
 * open here): a batch on the HTTP thread can meet an FTS segment merge, which at 100,000 posts took
 * 0.1-0.7 s (the categorization stage re-queues every post, and list p95 was ~190 ms while it ran).
 */
export const BACKGROUND_FROM = INDEX_BATCH + 1

/** How often the word index's b-trees are looked at; they are merged once they stood unchanged for that long. */
const MERGE_CHECK_MS = 30_000
/** How often, after writesEnded(), the word queue is looked at until it is empty. */
const ENDED_CHECK_MS = 1000
/** B-trees besides the largest holding at least this share of its pages are worth merging into it. */
const MERGE_SHARE = 1 / 8

/**
 * Merging the whole index rewrites it (~4 s of the maintenance thread at 100,000 posts), so it waits
 * for the writes to stop (an import, the pipeline's stages) and for enough of the index to sit in
 * other b-trees than the largest.
 */
export function worthMerging(segments: readonly number[]): boolean {
  const [largest = 0, ...rest] = segments
  return rest.length > 0 && rest.reduce((s, n) => s + n, 0) >= largest * MERGE_SHARE
}

export function createIndexCatchUp({ db, semantic, log, mergeCheckMs = MERGE_CHECK_MS }: {
  db: Db; semantic: SemanticIndex; log?: { warn(msg: string, e?: unknown): void }; mergeCheckMs?: number
}): IndexCatchUp {
  let timer: NodeJS.Timeout | null = null
  let closed = false
  let failing = false
  // The words keep their quarter while an import writes: each search pays a pass over the posts they
  // lack. The vectors (the meaning half answers without the newest posts meanwhile) give way to requests.
  const wordsPacer = createPacer({ share: BUSY_SHARE, idleMs: IDLE_PAUSE_MS, yields: false })
  const vectorsPacer = createPacer({ share: BUSY_SHARE, idleMs: IDLE_PAUSE_MS })

  // The vector queue's catch-up moves to its own thread the first time a slice finds THREAD_FROM posts in it.
  let vectors: VectorThread | null | 'none' = semantic.onThread ? null : 'none'
  let readTimer: NodeJS.Timeout | null = null
  const readWritten = () => {
    if (readTimer || closed) return
    readTimer = setTimeout(() => {
      readTimer = null
      semantic.readWritten()
    }, READ_WRITTEN_MS)
    readTimer.unref()
  }
  const vectorThread = (): VectorThread | null => {
    if (vectors === null && searchBacklog(db, THREAD_FROM).vectors >= THREAD_FROM) {
      vectors = startVectorThread({
        db, embedder: semantic.onThread!, onWrote: readWritten,
        // Started again for the next long backlog.
        onEnded: () => { vectors = null },
        onFailed: (why) => {
          // From here on the slices catch the vectors up on this thread, as before.
          log?.warn(`search: the vector thread stopped (${why}); catching up here`)
          vectors = 'none'
          if (!closed) kick()
        },
      }) ?? 'none'
    }
    return vectors === 'none' ? null : vectors
  }

  const indexQueued = (budgetMs: number): number => {
    const until = performance.now() + budgetMs
    while (searchIndexQueued(db, INDEX_BATCH) > 0) if (performance.now() >= until) return searchFtsQueueSize(db)
    return 0
  }

  const indexQueuedInSlices = async (posts: number): Promise<void> => {
    let slice = performance.now()
    for (let left = posts; left > 0;) {
      const n = searchIndexQueued(db, Math.min(INDEX_BATCH, left))
      if (n === 0) return
      left -= n
      if (performance.now() - slice > SLICE_MS) {
        await nextTurn()
        slice = performance.now()
      }
    }
  }

  let background: 'idle' | 'running' | 'unavailable' = 'idle'
  /** Whether the words are being indexed on the maintenance thread (started here when the backlog is long). */
  const wordsInBackground = (): boolean => {
    if (background !== 'idle') return background === 'running'
    // An import's write transaction is open on this connection: its queued posts are invisible to the
    // maintenance thread's connection (which would wait for the lock, find nothing, and be asked again).
    if (inTransaction(db)) return false
    if (searchBacklog(db, BACKGROUND_FROM).words < BACKGROUND_FROM) return false
    const started = searchIndexInBackground(db, () => {
      background = 'idle'
      kick()
    })
    background = started ? 'running' : 'unavailable'
    return started
  }

  const slice = () => {
    timer = null
    if (closed || !isOpen(db)) return
    try {
      // Indexing words leaves the vectors' queue as it was: one look at both queues serves the slice.
      const backlog = searchBacklog(db, 1)
      const words = !wordsInBackground() && backlog.words > 0
      const thread = !words && backlog.vectors > 0 ? vectorThread() : null
      failing = false
      if (thread) {
        thread.kick()
        return kick(VECTOR_LOOK_MS)
      }
      const { value: more, pauseMs } = words
        ? wordsPacer.slice(() => indexQueued(SLICE_MS) > 0 || backlog.vectors > 0)
        : vectorsPacer.slice(() => semantic.catchUp(SLICE_MS, { ifFree: true }) > 0)
      if (more) kick(pauseMs)
    } catch (e) {
      // Say, another writer holding the word index's lock past the busy time-out: retried a second later.
      if (!failing) log?.warn('search: could not update the index; retrying', e)
      failing = true
      kick(RETRY_MS)
    }
  }

  let merging = false
  let lastSegments = ''
  /** Set by writesEnded(): merge without waiting for MERGE_CHECK_MS of quiet, once the word queue is empty. */
  let ended = false
  let endedTimer: NodeJS.Timeout | null = null
  /**
   * Starts a merge on the maintenance thread when the index is worth merging and was not written since
   * the last periodic look, or (`caughtUp`, after writesEnded()) when no post waits for it.
   */
  const mergeWhenQuiet = (caughtUp = false) => {
    if (closed || merging || background === 'running' || !isOpen(db)) return
    const segments = searchIndexSegments(db)
    const seen = segments.join(',')
    const quiet = caughtUp ? searchFtsQueueSize(db) === 0 : seen === lastSegments
    if (!caughtUp) lastSegments = seen
    if (!quiet) return
    ended = false
    if (!worthMerging(segments)) return
    merging = searchMergeInBackground(db, () => {
      merging = false
      lastSegments = ''
    })
  }
  const lookAtTrees = (caughtUp = false) => {
    try {
      mergeWhenQuiet(caughtUp)
    } catch (e) {
      log?.warn('search: could not look at the word index', e)
    }
  }
  /** After writesEnded(): looks again every ENDED_CHECK_MS until the queue is empty (the word backlog being indexed meanwhile). */
  const mergeOnceCaughtUp = () => {
    endedTimer = null
    lookAtTrees(true)
    if (ended && !closed && !merging) {
      endedTimer = setTimeout(mergeOnceCaughtUp, ENDED_CHECK_MS)
      endedTimer.unref()
    }
  }
  const mergeTimer = setInterval(() => lookAtTrees(), mergeCheckMs)
  mergeTimer.unref()

  function kick(delayMs = 5) {
    if (timer || closed) return
    timer = setTimeout(slice, delayMs)
    timer.unref()
  }

  /** The database's change stamp when both queues were last found empty: nothing written since, nothing queued. */
  let emptyAt: string | null = null

  return {
    beforeQuery() {
      const stamp = dataStamp(db)
      if (stamp === emptyAt) return false
      const { words, vectors } = searchBacklog(db, INDEX_BATCH + 1)
      emptyAt = words === 0 && vectors === 0 ? stamp : null
      if (emptyAt) return false
      if (words <= INDEX_BATCH && vectors <= INDEX_BATCH) {
        if (background !== 'running') indexQueued(Infinity)
        // Not while another connection writes: the query answers from what is indexed, the slices follow.
        if (semantic.catchUp(Infinity, { ifFree: true }) > 0) kick()
      } else kick()
      return true
    },
    indexQueued,
    indexQueuedInSlices,
    kick,
    writesEnded() {
      ended = true
      if (!endedTimer) mergeOnceCaughtUp()
    },
    close() {
      closed = true
      clearInterval(mergeTimer)
      if (endedTimer) clearTimeout(endedTimer)
      if (timer) clearTimeout(timer)
      if (readTimer) clearTimeout(readTimer)
      timer = null
      if (vectors !== null && vectors !== 'none') vectors.close()
    },
  }
}
