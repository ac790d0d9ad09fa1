import { inTransaction, isOpen, libraryStamp, type Db } from '../store/index.ts'

export interface Warmer {
  stop(): void
}

/**
 * Recomputes what the dashboard and the mind map open with once the library has held still for a
 * tick after a change (an import, a pipeline run, an edit), so the first look afterwards does not
 * wait for aggregates over the whole library. Never during a burst of changes or an open write.
 */
export function startWarming({ db, tasks, everyMs = 1000 }: { db: Db; tasks: Array<() => unknown>; everyMs?: number }): Warmer {
  let seen = ''
  let warmed = ''
  const timer = setInterval(() => {
    if (!isOpen(db) || inTransaction(db)) return
    const stamp = libraryStamp(db)
    if (stamp !== seen) {
      seen = stamp
      return
    }
    if (stamp === warmed) return
    warmed = stamp
    for (const task of tasks) task()
  }, everyMs)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
