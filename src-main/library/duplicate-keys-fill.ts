import { keysOfStored } from '../duplicates/index.ts'
import { inTransaction, isOpen, countQueuedForKeys, dequeueForKeys, insertPostKeys, queuedForKeys, transaction, transactionIfFree, type Db } from '../store/index.ts'

/** Posts keyed per tick: a few ms (1,000 held the HTTP thread 55-90 ms a tick during bench/load.ts's import). */
const CHUNK = 200
/** A post's page keys what is still queued first when this little is left (a small import, a test); more waits for the background. */
const CATCH_UP_MAX = 2000

export interface KeyFill {
  stop(): void
  /** Keys everything queued now, if that is little (see CATCH_UP_MAX): called before duplicates are read. */
  catchUp(): void
}

/**
 * Duplicate keys are made here, off the import's path: the importer only queues new and changed posts
 * (post_keys_queue, one set-based statement per batch), and migration 0010 queued every post of an older
 * library. A chunk of 200 posts per tick (~4 ms on a quiet machine), each in its own short transaction,
 * never while another write is open, 10 ms apart: about 7 s for a 100,000-post import. An empty queue
 * is looked at once a second.
 */
export function startKeyFill({ db, everyMs = 10, idleMs = 1000 }: { db: Db; everyMs?: number; idleMs?: number }): KeyFill {
  /** 'busy': a write is open (here or on another connection); 'done': nothing queued; 'more': keep going. */
  const step = (waitForLock = false): 'busy' | 'done' | 'more' => {
    if (!isOpen(db) || inTransaction(db)) return 'busy'
    const rows = queuedForKeys(db, CHUNK)
    if (rows.length === 0) return 'done'
    const write = () => {
      for (const r of rows) insertPostKeys(db, r.id, keysOfStored(r))
      dequeueForKeys(db, rows.map((r) => r.id))
    }
    if (waitForLock) transaction(db, write)
    else if (!transactionIfFree(db, write)) return 'busy'
    return rows.length < CHUNK ? 'done' : 'more'
  }
  let timer: ReturnType<typeof setTimeout> | null = null
  let stopped = false
  const tick = () => {
    timer = null
    if (stopped || !isOpen(db)) return
    let s: ReturnType<typeof step>
    try {
      s = step()
    } catch {
      // A timer that throws ends the server: whatever failed (the lock held past the busy time-out) is tried later.
      s = 'done'
    }
    timer = setTimeout(tick, s === 'done' ? idleMs : everyMs)
    timer.unref()
  }
  timer = setTimeout(tick, 0)
  timer.unref()
  return {
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
    },
    catchUp() {
      if (!isOpen(db) || inTransaction(db)) return
      const n = countQueuedForKeys(db, CATCH_UP_MAX + 1)
      if (n === 0 || n > CATCH_UP_MAX) return
      while (step(true) === 'more');
    },
  }
}
