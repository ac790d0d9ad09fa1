import { databaseFile, type Db } from '../store/index.ts'
import type { LocalEmbedderOptions } from './embedder.ts'
import { startNicedWorker } from '../background/index.ts'

/**
 * The vector queue's catch-up on a thread of its own (vector-worker.ts, at the background workers'
 * nice), with its own connection: the new and changed posts' word vectors are computed and written
 * there, and the HTTP thread only reads the finished vectors into its index (SemanticIndex.readWritten).
 * In bench/load.ts's busy phase the catch-up had taken 20-57 ms of the HTTP thread a second for 12 s.
 */
export interface VectorThread {
  /** Asks it to empty the queue (nothing when it is already at it). */
  kick(): void
  /** It is emptying the queue (between a kick and its report that the queue is empty). */
  readonly running: boolean
  close(): void
}

export type ToVectorThread = 'kick' | 'close'
export type FromVectorThread = { type: 'wrote'; posts: number; vectors: number } | { type: 'idle' } | { type: 'failed'; message: string }

/** Posts per write transaction (a few ms of the lock), and the pause after each, in which the app's writers take it. */
const BATCH = 64
const PAUSE_MS = 8
/**
 * It ends once the queue has stood empty this long: its isolate, connection and word-vector table held
 * ~70 MB of the server's RSS (bench/load.ts), and imports that need it are occasional.
 */
const IDLE_EXIT_MS = 10_000
/**
 * Its garbage is small and short-lived (a batch's inputs and vectors): a 2 MB young generation held the
 * process's RSS while it ran to +56-65 MB against +107 MB with V8's default, for 2,000 posts in 1.4 s
 * against 1.1 s.
 */
const LIMITS = { maxYoungGenerationSizeMb: 2 }

/**
 * Starts the thread for this library's file; null for a library in memory. `onWrote` follows each
 * batch written; `onEnded` when it ended after idling; `onFailed`: it stopped otherwise (the caller
 * catches the queue up itself from then on).
 */
export function startVectorThread({ db, embedder, onWrote, onEnded, onFailed, idleExitMs = IDLE_EXIT_MS }: {
  db: Db; embedder: LocalEmbedderOptions; onWrote: () => void; onEnded: () => void; onFailed: (why: string) => void; idleExitMs?: number
}): VectorThread | null {
  const file = databaseFile(db)
  if (!file) return null
  const worker = startNicedWorker(new URL('./vector-worker.ts', import.meta.url), {
    workerData: { file, embedder, batch: BATCH, pauseMs: PAUSE_MS }, resourceLimits: LIMITS,
  })
  worker.unref()
  let running = false
  let stopped = false
  let idle: NodeJS.Timeout | null = null
  const stop = (why: string) => {
    if (stopped) return
    stopped = true
    running = false
    onFailed(why)
  }
  const close = () => {
    if (idle) clearTimeout(idle)
    if (stopped) return
    stopped = true
    worker.postMessage('close' satisfies ToVectorThread)
  }
  worker.on('message', (m: FromVectorThread) => {
    if (stopped) return
    if (m.type === 'wrote') onWrote()
    else if (m.type === 'idle') {
      running = false
      idle = setTimeout(() => {
        close()
        onEnded()
      }, idleExitMs)
      idle.unref()
    } else stop(m.message)
  })
  worker.on('error', (e) => stop(e.message))
  worker.on('exit', () => stop('the vector thread exited'))
  return {
    kick() {
      if (stopped || running) return
      if (idle) clearTimeout(idle)
      running = true
      worker.postMessage('kick' satisfies ToVectorThread)
    },
    get running() {
      return running
    },
    close,
  }
}
