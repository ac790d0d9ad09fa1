import { inTransaction, libraryStamp, searchFilteredIds, searchIndexStamp, type Db, type SearchFilter } from '../store/index.ts'
import { bitsAllowed, type AllowedIds } from '../vectors/index.ts'

/**
 * A broad filter's posts (`last year`, `has:image`, `-benchmarks`) kept in memory while the library
 * stands still, so a search asks each post "does it pass?" with a shift and a mask: the meaning half
 * searches among them directly and the word half tests its walk in JS, instead of checking each
 * search's 1,000 neighbours and 2,000 word matches against the filter in SQL. The set itself comes
 * from searchFilteredIds, the one SQL definition of what a filter means.
 */
export interface PostSet extends AllowedIds {
  /** Bytes held. */
  readonly bytes: number
}

/**
 * A bitmap by post id (ids are small integers: 100,000 posts take 12.5 KB), over shared memory: the
 * meaning half's scan thread reads it as posted, without a copy (it is never changed once built).
 */
export function postSetOf(ids: readonly number[]): PostSet {
  let max = 0
  for (const id of ids) if (id > max) max = id
  const words = new Uint32Array(new SharedArrayBuffer(((max >>> 5) + 1) * 4))
  let size = 0
  for (const id of ids) {
    const bit = 1 << (id & 31)
    if ((words[id >>> 5] & bit) === 0) size++
    words[id >>> 5] |= bit
  }
  return { ...bitsAllowed(words, size), bytes: words.byteLength }
}

/** Filters kept at most (a bench's shapes hold four or five; each set is maxId / 8 bytes). */
const KEEP = 8
/**
 * A set is built only once searches have seen the library's stamp stand this long: a build costs ~2 ms
 * (dates) to ~30-60 ms (`has:image`, a minus word) of the thread at 100,000 posts, and a job or an
 * import writing every few hundred ms would otherwise have one built after each write.
 */
export const STEADY_MS = 2000

/** Filters remembered as asked (the stamp they were asked under), so a set is built only for one asked again. */
const ASKED = 64

type Entry = { stamp: string; set: PostSet }
type Sets = { entries: Map<string, Entry>; seen: Map<boolean, { stamp: string; since: number }>; asked: Map<string, string> }
const byDb = new WeakMap<Db, Sets>()

/** What the filter reads: the posts, their media and categories (libraryStamp), and for minus words the word index. */
const usesWords = (f: SearchFilter): boolean => (f.mustNotMatch?.length ?? 0) > 0
const stampOf = (db: Db, words: boolean): string => (words ? `${libraryStamp(db)}|${searchIndexStamp(db)}` : libraryStamp(db))

/**
 * The filter's posts from memory, or null: then the search checks the filter in SQL, as before. A set is
 * used only under the stamp it was built under, so a post added or edited is found or left out at once.
 * One is built (one SQL read of the filter's posts) only for a filter asked before under the same stamp,
 * once searches have seen that stamp for STEADY_MS and no write transaction is open: during an import or
 * a job the stamp moves on every write, and a set is never built per request. Quoted phrases are left to
 * SQL: each question has its own, and building a set for each cost the bench's phrase questions 60% more
 * (search-shapes, 3.3 → 5.4 ms). `now` is performance.now()'s clock.
 */
export function broadPosts(db: Db, filter: SearchFilter, now = performance.now()): PostSet | null {
  if ((filter.mustMatch?.length ?? 0) > 0) return null
  let sets = byDb.get(db)
  if (!sets) byDb.set(db, (sets = { entries: new Map(), seen: new Map(), asked: new Map() }))
  const words = usesWords(filter)
  const stamp = stampOf(db, words)
  const key = JSON.stringify(filter)
  const hit = sets.entries.get(key)
  if (hit?.stamp === stamp) {
    sets.entries.delete(key)
    sets.entries.set(key, hit)
    return hit.set
  }
  const seen = sets.seen.get(words)
  if (seen?.stamp !== stamp) sets.seen.set(words, { stamp, since: now })
  const askedBefore = sets.asked.get(key) === stamp
  sets.asked.delete(key)
  if (sets.asked.size >= ASKED) sets.asked.delete(sets.asked.keys().next().value!)
  sets.asked.set(key, stamp)
  if (!askedBefore || seen?.stamp !== stamp || now - seen.since < STEADY_MS || inTransaction(db)) return null
  const set = postSetOf(searchFilteredIds(db, filter))
  sets.entries.delete(key)
  if (sets.entries.size >= KEEP) sets.entries.delete(sets.entries.keys().next().value!)
  sets.entries.set(key, { stamp, set })
  return set
}

/** Bytes the kept sets hold for this database (for benches). */
export const broadPostsBytes = (db: Db): number => [...(byDb.get(db)?.entries.values() ?? [])].reduce((s, e) => s + e.set.bytes, 0)
