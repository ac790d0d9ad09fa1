import { setTimeout as sleep } from 'node:timers/promises'
import { inTransaction, transaction, transactionIfFree, type Db } from '../store/index.ts'

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

/** How long writeWhenFree polls for the write lock before it waits in SQLite's busy handler instead. */
const POLL_FOR_MS = 5000

/**
 * Runs `fn` in one transaction once the write lock is free, polling for it every `pollMs` with the
 * event loop free meanwhile: the word index's catch-up holds the lock in short batches with short
 * pauses, and waiting for it in SQLite's busy handler held up every request (list p95 ~190 ms while
 * categories were written at 100,000 posts).
 */
export async function writeWhenFree<T>(db: Db, fn: () => T, { signal, pollMs = 2 }: { signal?: AbortSignal; pollMs?: number } = {}): Promise<T> {
  for (const until = performance.now() + POLL_FOR_MS; performance.now() < until && !signal?.aborted; await sleep(pollMs)) {
    await waitForWriters(db, signal)
    const done = transactionIfFree(db, fn)
    if (done) return done.value
  }
  await waitForWriters(db, signal)
  return transaction(db, fn)
}
