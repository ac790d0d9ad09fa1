import { UNKNOWN_HANDLE } from '../importers/index.ts'
import { clearThreadPlace, selfReplies, setThreadPlace, storedThreadPlaces, type Db } from '../store/index.ts'
import { orderThreads } from './order.ts'

export interface AssembleResult { threads: number; parts: number; changed: number }

/**
 * Rebuilds every thread from the library's self-replies and writes only the places that changed. A
 * whole rebuild, not an update around the new posts: it reads the replies alone (a partial index),
 * which at 100,000 posts is a few tens of milliseconds, and it cannot drift from what is stored.
 * Call it inside the write that changed the posts (an import, a delete, a merge).
 */
export function assembleThreads(db: Db): AssembleResult {
  const places = orderThreads(selfReplies(db, UNKNOWN_HANDLE))
  const stored = new Map(storedThreadPlaces(db).map((p) => [p.id, p]))
  let changed = 0
  for (const p of places) {
    const s = stored.get(p.id)
    stored.delete(p.id)
    if (s && s.rootId === p.rootId && s.position === p.position && s.size === p.size) continue
    setThreadPlace(db, p)
    changed++
  }
  for (const id of stored.keys()) clearThreadPlace(db, id)
  changed += stored.size
  return { threads: places.filter((p) => p.position === 1).length, parts: places.length, changed }
}
