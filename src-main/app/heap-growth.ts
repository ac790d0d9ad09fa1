import { setFlagsFromString } from 'node:v8'

/**
 * How far past its live size a thread's V8 heap may grow before the next full collection, in percent.
 * V8 picks a factor of up to 4.0 for a heap with its default 4 GB limit (the HTTP thread's) and of
 * up to 1.3 for one capped at 256 MB (the model workers': worker-limits.ts). At 4.0 the HTTP thread's
 * heap reached 130-227 MB through a 100,000-post job over 47 MB of live objects, and the process
 * kept those pages afterwards. 30 holds every thread to the workers' 1.3.
 */
export const HEAP_GROWING_PERCENT = 30

/**
 * Sets the growing factor for every isolate of the process (the flag is read at each collection, so
 * it holds for threads already running). Set at start-up by whatever runs the server: `sheaf serve`
 * and the desktop shell alike, since Electron's main process takes no V8 flags after it starts.
 */
export function limitHeapGrowth(percent = Number(process.env.SHEAF_HEAP_GROWING_PERCENT || HEAP_GROWING_PERCENT)): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`)
}
