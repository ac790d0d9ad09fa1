import { setPriority } from 'node:os'
import { isMainThread } from 'node:worker_threads'

/** The nice value of background workers: SHEAF_WORKER_NICE (0-19; 0 leaves them at normal priority), 19 by default. */
export function workerNice(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.SHEAF_WORKER_NICE ?? 19)
  return Number.isInteger(n) ? Math.min(19, Math.max(0, n)) : 19
}

/**
 * The nice value a background worker thread sets itself to: `nice` on Linux, 0 (none) elsewhere (see
 * lowerThreadPriority). A worker that cannot import this module (the database's maintenance thread,
 * an eval'd script) is handed the value.
 */
export const backgroundNice = (platform: NodeJS.Platform = process.platform, nice = workerNice()): number => (platform === 'linux' ? nice : 0)

/**
 * Gives the calling worker thread a lower CPU priority (nice 19 unless SHEAF_WORKER_NICE says
 * otherwise), so on a busy machine the HTTP thread wins the CPU over analysis, parsing and indexing.
 * Linux only: there the nice value belongs to each thread and setpriority(PRIO_PROCESS, 0) changes
 * the calling thread alone. On macOS and Windows the same call changes the whole process, the HTTP
 * thread with it, so there it does nothing. Returns whether the priority was lowered.
 */
export function lowerThreadPriority(platform: NodeJS.Platform = process.platform, mainThread = isMainThread, nice = workerNice()): boolean {
  const n = mainThread ? 0 : backgroundNice(platform, nice)
  if (n === 0) return false
  try {
    setPriority(n)
    return true
  } catch {
    return false // a sandbox that forbids it: the work still runs, at normal priority
  }
}
