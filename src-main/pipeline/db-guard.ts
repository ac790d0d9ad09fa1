import { setTimeout as sleep } from 'node:timers/promises'
import { inTransaction, type Db } from '../store/faces/pipeline.ts'

/** SQLite said another writer holds the lock (another connection, or the busy timeout ran out). */
export function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

/**
 * Waits while a transaction someone else holds across awaits is open on the shared connection (an
 * import's BEGIN IMMEDIATE): pipeline writes made meanwhile would join it and roll back with it.
 * JavaScript is single-threaded, so after an await an open transaction is never the caller's own.
 */
export async function waitForWriters(db: Db, signal?: AbortSignal, pollMs = 25): Promise<void> {
  while (inTransaction(db) && !signal?.aborted) await sleep(pollMs)
}

/** Runs `fn`, retrying with a growing pause while the database is busy; other errors pass through. */
export async function retryBusy<T>(db: Db, fn: () => T, { attempts = 8, signal }: { attempts?: number; signal?: AbortSignal } = {}): Promise<T> {
  for (let i = 1; ; i++) {
    await waitForWriters(db, signal)
    try {
      return fn()
    } catch (e) {
      if (!isBusy(e) || i >= attempts || signal?.aborted) throw e
      await sleep(Math.min(2000, 50 * 2 ** i))
    }
  }
}
