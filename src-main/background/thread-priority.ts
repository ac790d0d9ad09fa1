import { constants, setPriority } from 'node:os'
import { isMainThread } from 'node:worker_threads'

/**
 * Gives the calling worker thread the lowest CPU priority (nice 19), so on a busy machine the HTTP
 * thread wins the CPU over analysis, parsing and indexing. Linux only: there the nice value belongs to
 * each thread and setpriority(PRIO_PROCESS, 0) changes the calling thread alone. On macOS and Windows
 * the same call changes the whole process, the HTTP thread with it, so there it does nothing.
 * Returns whether the priority was lowered.
 */
export function lowerThreadPriority(platform: NodeJS.Platform = process.platform, mainThread = isMainThread): boolean {
  if (platform !== 'linux' || mainThread) return false
  try {
    setPriority(constants.priority.PRIORITY_LOW)
    return true
  } catch {
    return false // a sandbox that forbids it: the work still runs, at normal priority
  }
}
