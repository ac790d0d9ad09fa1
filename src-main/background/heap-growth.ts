import { setFlagsFromString } from 'node:v8'

/**
 * How far past its live size a thread's V8 heap may grow before the next full collection, in percent,
 * while the library is being written (an import, a pipeline job, a re-scoring of categories). V8 picks a factor of up to 4.0 for a
 * heap with its default 4 GB limit (the HTTP thread's) and of up to 1.3 for one capped at 256 MB (the
 * model workers': worker-limits.ts). At 4.0 the HTTP thread's heap reached 130-227 MB through a
 * 100,000-post job over 47 MB of live objects, and the process kept those pages afterwards. 30 holds
 * every thread to the workers' 1.3.
 */
export const HEAP_GROWING_PERCENT = 30
/**
 * The factor when nothing is being written. Serving searches alone, the 1.3 factor made full collections
 * so often that marking took 0.2-0.3 ms of the process a search on V8's helper threads (bench/search-alone.ts
 * at 100,000 posts: process 3.39-3.54 ms a search at 100, 3.42 at 200, 3.61-4.27 at 30), RSS within the
 * runs' spread (docs/load-history.md, "Stop 31: the heap's growth when idle"). 100 (a factor of 2) gave what 200 did.
 */
export const IDLE_HEAP_GROWING_PERCENT = 100

let limits: { busy: number; idle: number } | null = null
let holds = 0

const apply = () => {
  if (!limits) return
  const percent = holds > 0 ? limits.busy : limits.idle
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`)
}

/**
 * Sets the growing factor for every isolate of the process (the flag is read at each collection, so
 * it holds for threads already running): HEAP_GROWING_PERCENT while a holdHeapGrowthDown() is held,
 * IDLE_HEAP_GROWING_PERCENT otherwise. Set at start-up by whatever runs the server: `sheaf serve` and
 * the desktop shell alike, since Electron's main process takes no V8 flags after it starts.
 * `SHEAF_HEAP_GROWING_PERCENT` fixes one factor for both (0: V8's own).
 */
export function limitHeapGrowth(fixed = process.env.SHEAF_HEAP_GROWING_PERCENT): void {
  const one = fixed ? Number(fixed) : null
  limits = { busy: one ?? HEAP_GROWING_PERCENT, idle: one ?? IDLE_HEAP_GROWING_PERCENT }
  apply()
}

/**
 * Holds every heap to the busy factor while the library is written (each import, pipeline job and re-scoring);
 * the returned function lets go (again: nothing). Without limitHeapGrowth() first (tests, tools), nothing is set.
 */
export function holdHeapGrowthDown(): () => void {
  holds++
  apply()
  let held = true
  return () => {
    if (!held) return
    held = false
    holds--
    apply()
  }
}

/** The factor in force now (null before limitHeapGrowth()). */
export const heapGrowingPercent = (): number | null => (limits ? (holds > 0 ? limits.busy : limits.idle) : null)
