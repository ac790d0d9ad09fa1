import { keysOfStored } from '../duplicates/index.ts'
import { dequeueForKeys, insertPostKeys, queuedForKeys, transaction, type Db } from '../store/index.ts'

const CHUNK = 500

/**
 * Keys the posts of a library imported before duplicate keys existed (migration 0010 queued them all):
 * a chunk per tick, each in its own short transaction, never while another write is open. About a
 * second per 20,000 posts; new imports key their own posts.
 */
export function startKeyFill({ db, everyMs = 50 }: { db: Db; everyMs?: number }): { stop(): void; drain(): void } {
  const step = (): boolean => {
    if (!db.$client.open || db.$client.inTransaction) return true
    const rows = queuedForKeys(db, CHUNK)
    if (rows.length === 0) return false
    transaction(db, () => {
      for (const r of rows) insertPostKeys(db, r.id, keysOfStored(r))
      dequeueForKeys(db, rows.map((r) => r.id))
    })
    return true
  }
  let timer: ReturnType<typeof setTimeout> | null = null
  const tick = () => {
    timer = null
    if (step()) timer = setTimeout(tick, everyMs).unref()
  }
  timer = setTimeout(tick, 0).unref()
  return {
    stop: () => {
      if (timer) clearTimeout(timer)
      timer = null
    },
    /** Keys everything still queued now (tests, the CLI). */
    drain: () => {
      while (db.$client.open && !db.$client.inTransaction && queuedForKeys(db, 1).length > 0) step()
    },
  }
}
