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
  /** The job's share of the thread while the rest of its work leaves room (less as requests fill it, see shareAt). */
  share?: number
  /** Utilisation of the rest of the thread's work (measured during the pauses) above which the job yields. */
  busyAbove?: number
  /** The longest pause after one batch. */
  maxPauseMs?: number
  /** How often the rest's utilisation is measured again while the job runs without pausing (a short pause). */
  remeasureMs?: number
  /** Utilisation and active time since `since` (tests pass their own). */
  utilisation?: (since: EventLoopUtilization) => { utilization: number; active: number }
  sleep?: (ms: number) => Promise<void>
  now?: () => number
}

/** The pause that measures how busy the rest of the thread is while the job runs flat out. */
export const MEASURE_PAUSE_MS = 5
/** A pause of this length moves the rest's measured utilisation halfway to what it saw. */
const SMOOTH_MS = 5

/**
 * Between the batches of a job that does part of its work on this thread (the pipeline's writes, its
 * image stage when every fetch fails at once): the job takes at most `share` of the thread while
 * requests use it, less as they fill it (shareAt, as the background slices), so the pause after a
 * batch is what the batch held the thread for times (1/share − 1). How busy the rest of the thread is
 * is measured during the pauses (the batch's own time would count the job as requests). Alone, the job
 * runs flat out with a short pause now and then to look again. bench/load.ts: the image stage took
 * 300 ms of every second for 4 s of its busy phase with the pause of the thread's whole busy time only
 * above three quarters of it (the rest of the thread then took ~0.7 of it: no idle time was left).
 */
export function createBatchPacing(options: BatchPacingOptions = {}): () => Promise<void> {
  const {
    share = 0.5, busyAbove = 0.25, maxPauseMs = 500, remeasureMs = 100,
    utilisation = (since) => performance.eventLoopUtilization(since), now = () => performance.now(),
    sleep = (ms) => new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve))),
  } = options
  let batchFrom = performance.eventLoopUtilization()
  let rest = 0
  let measuredAt = -Infinity
  return async () => {
    const batch = utilisation(batchFrom).active
    const shareNow = shareAt(rest, share)
    let pause = rest > busyAbove ? Math.min(maxPauseMs, batch * (1 / shareNow - 1)) : 0
    if (pause < MEASURE_PAUSE_MS && now() - measuredAt >= remeasureMs) pause = MEASURE_PAUSE_MS
    const pauseFrom = performance.eventLoopUtilization()
    const t0 = now()
    await sleep(pause)
    if (pause >= MEASURE_PAUSE_MS) {
      // A short pause sees a request or none: it moves the figure by its length against SMOOTH_MS.
      const elapsed = now() - t0
      rest += (utilisation(pauseFrom).utilization - rest) * (elapsed / (elapsed + SMOOTH_MS))
      measuredAt = now()
    }
    batchFrom = performance.eventLoopUtilization()
  }
}
