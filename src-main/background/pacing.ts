import { performance, type EventLoopUtilization } from 'node:perf_hooks'

/**
 * Work done on the HTTP thread in slices between requests (duplicate keys after an import) has to
 * leave the thread to the requests while they come in: with 200 requests a second taking ~0.6 of it,
 * a key fill running every 10 ms filled the rest, and requests queued behind it for seconds
 * (bench/load.ts). So after a slice the pause before the next one keeps the work to `share` of the
 * thread while requests were being answered since the last slice, and is `idleMs` otherwise.
 */
export interface Pacer {
  /** Runs one slice of the work: its result, and how long to wait before the next slice. */
  slice<T>(work: () => T): { value: T; pauseMs: number }
}

export interface PacerOptions {
  /** The largest share of the thread the work takes while it is answering requests (0-1). */
  share: number
  /** The pause between slices while nothing else runs. */
  idleMs: number
  /** Event-loop utilisation between slices above which the thread counts as answering requests. */
  busyAbove?: number
  /**
   * False: `share` whatever the rest of the work leaves (work every request pays for while it waits,
   * like the word index during an import). Default true: less as the thread fills (see HEADROOM).
   */
  yields?: boolean
  /** Utilisation since `since` (tests pass their own). */
  utilisation?: (since: EventLoopUtilization) => number
}

/**
 * What the rest of the thread's work (requests, other background work) may leave it: above this
 * utilisation between slices, a slice's share shrinks by as much, down to MIN_SHARE. With requests at
 * ~0.6 of the thread after bench/load.ts's import, the vector catch-up's quarter and the key fill's
 * tenth beside the pipeline's writes left it no idle time for seconds, and requests queued (the busy
 * phase's worst second, p95 250-270 ms).
 */
export const HEADROOM = 0.85
/** The least share a slice keeps however busy the thread, so the work still ends. */
export const MIN_SHARE = 0.05

/** The share of the thread the work takes when the rest of its work used `utilisation` of it. */
export const shareAt = (utilisation: number, share: number): number =>
  Math.max(Math.min(share, MIN_SHARE), Math.min(share, HEADROOM - utilisation))

/**
 * The pause after a slice of `sliceMs`, `utilisation` being the thread's since the last slice: `share`
 * of the thread at most while it is busy (less when requests leave little headroom), `idleMs` otherwise.
 */
export const pauseAfter = (sliceMs: number, utilisation: number, { share, idleMs, busyAbove = 0.05, yields = true }: Pick<PacerOptions, 'share' | 'idleMs' | 'busyAbove' | 'yields'>): number =>
  utilisation > busyAbove ? Math.max(idleMs, sliceMs * (1 / (yields ? shareAt(utilisation, share) : share) - 1)) : idleMs

export function createPacer(options: PacerOptions): Pacer {
  const { utilisation = (since) => performance.eventLoopUtilization(since).utilization } = options
  let since = performance.eventLoopUtilization()
  return {
    slice(work) {
      const used = utilisation(since)
      const t0 = performance.now()
      try {
        return { value: work(), pauseMs: pauseAfter(performance.now() - t0, used, options) }
      } finally {
        since = performance.eventLoopUtilization()
      }
    },
  }
}

export interface BatchPacingOptions {
  /** Event-loop utilisation since the last batch above which requests count as queueing behind the job. */
  busyAbove?: number
  /** The longest pause after one batch. */
  maxPauseMs?: number
  /** Utilisation and active time since `since` (tests pass their own). */
  utilisation?: (since: EventLoopUtilization) => { utilization: number; active: number }
  sleep?: (ms: number) => Promise<void>
}

/**
 * Between the batches of a job that does part of its work on this thread (the pipeline's writes, its
 * image stage when every fetch fails at once): when the thread was three quarters busy or more since
 * the last batch, requests were queueing behind the job, so the next batch waits as long as the thread
 * was busy (up to `maxPauseMs`), which leaves it at least half to them; otherwise a turn of the event
 * loop. bench/load.ts: the image stage took 330-530 ms of every second for 3 s of its busy phase
 * (and still 320-440 ms with the pause from 0.9).
 */
export function createBatchPacing(options: BatchPacingOptions = {}): () => Promise<void> {
  const {
    busyAbove = 0.75, maxPauseMs = 250, utilisation = (since) => performance.eventLoopUtilization(since),
    sleep = (ms) => new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve))),
  } = options
  let since = performance.eventLoopUtilization()
  return async () => {
    const { utilization, active } = utilisation(since)
    await sleep(utilization > busyAbove ? Math.min(maxPauseMs, active) : 0)
    since = performance.eventLoopUtilization()
  }
}
