import { inTransaction, libraryStamp, type Db } from '../store/index.ts'
import type { Candidate } from './candidates.ts'

/** How long a query's matches among the posts not in the word index yet are reused (as a list's `q`, library/bookmarks.ts). */
const REUSE_MS = 1000
const KEEP = 50

type Entry = { found: Candidate[]; at: number; library: string }
const byDb = new WeakMap<Db, Map<string, Entry>>()

/**
 * A query's matches among the posts still waiting for the word index (a LIKE pass over the queue, then
 * BM25 scoring of each post's text), reused for up to a second while the library itself has not
 * changed (the index taking a post from the queue changes nothing a reader sees) or while an import's
 * transaction is open (its new posts show up within the second). During bench/load.ts's import every
 * search paid for both: 1.2 s of the HTTP thread in 9 s, a third of each search, while the thread had
 * no time left. An edit outside an import moves the library's stamp, and the next search looks afresh.
 */
export function recentUnindexed(db: Db, key: string, find: () => Candidate[]): Candidate[] {
  let recent = byDb.get(db)
  if (!recent) byDb.set(db, (recent = new Map()))
  const now = performance.now()
  const library = libraryStamp(db)
  const hit = recent.get(key)
  if (hit && now - hit.at < REUSE_MS && (hit.library === library || inTransaction(db))) return hit.found
  const found = find()
  recent.delete(key)
  if (recent.size >= KEEP) recent.delete(recent.keys().next().value!)
  recent.set(key, { found, at: now, library })
  return found
}
