import { stat } from 'node:fs'
import { setPriority } from 'node:os'
import { isMainThread } from 'node:worker_threads'

/** The nice value of background workers: SHEAF_WORKER_NICE (0-19; 0 leaves them at normal priority), 19 by default. */
export function workerNice(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.SHEAF_WORKER_NICE ?? 19)
  return Number.isInteger(n) ? Math.min(19, Math.max(0, n)) : 19
}

/**
 * Gives the calling worker thread a lower CPU priority (nice 19 unless SHEAF_WORKER_NICE says
 * otherwise), so on a busy machine the HTTP thread wins the CPU over analysis, parsing and indexing.
 * Linux only: there the nice value belongs to each thread and setpriority(PRIO_PROCESS, 0) changes
 * the calling thread alone. On macOS and Windows the same call changes the whole process, the HTTP
 * thread with it, so there it does nothing. Returns whether the priority was lowered.
 * libuv's pool (async files, crypto, DNS) is started by the first thread that needs it, and its threads
 * keep that thread's nice: it is started here first, at normal priority, so the HTTP thread's file and
 * crypto work never waits on nice-19 threads.
 */
export function lowerThreadPriority(platform: NodeJS.Platform = process.platform, mainThread = isMainThread, nice = workerNice()): boolean {
  if (platform !== 'linux' || mainThread || nice === 0) return false
  try {
    stat('/', () => {})
    setPriority(nice)
    return true
  } catch {
    return false // a sandbox that forbids it: the work still runs, at normal priority
  }
}
