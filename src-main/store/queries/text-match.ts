import { dataStamp, sqliteOf, stmt, type Db } from '../db.ts'

/**
 * A `q` word filter (GET /api/bookmarks?q=, the export's filter): every word must occur in the post's
 * text or author, through the full-text index; posts still waiting for the index, by LIKE.
 */

const LIKE_ANY = "(lower(b.text) LIKE ? ESCAPE '\\' OR lower(b.author_handle) LIKE ? ESCAPE '\\' OR lower(b.author_name) LIKE ? ESCAPE '\\')"

/** `%s%` with LIKE's own wildcards escaped, lower case. */
const likePattern = (s: string): string => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** The FTS5 expression and the LIKE fallback (for posts not indexed yet) behind a `q` word filter. */
function textQuery(q: string): { match: string; like: string; likeParams: string[] } | null {
  const words = [...new Set(q.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_]*/gu) ?? [])].slice(0, 10)
  if (words.length === 0) return null
  const quote = (w: string) => `"${w.replace(/"/g, '""')}"`
  const match = `{text author} : (${words.map((w, i) => (i === words.length - 1 && w.length >= 2 ? `${quote(w)}*` : quote(w))).join(' AND ')})`
  const like = words.map(() => LIKE_ANY)
  const likeParams = words.flatMap((w) => Array<string>(3).fill(likePattern(w)))
  return { match, like: like.join(' AND '), likeParams }
}

/**
 * Posts still waiting for the word index (search_fts_queue) that hold any of `words` in their text or
 * author, newest first: a LIKE pass over the queue alone, so search finds them before indexing ends.
 */
export function searchQueuedMatching(db: Db, words: readonly string[], limit: number): number[] {
  if (words.length === 0) return []
  const params = words.flatMap((w) => Array<string>(3).fill(likePattern(w)))
  return stmt(db, `SELECT b.id FROM search_fts_queue sq CROSS JOIN bookmarks b ON b.id = sq.bookmark_id
    WHERE ${words.map(() => LIKE_ANY).join(' OR ')} ORDER BY b.id DESC LIMIT ?`).pluck().all(...params, limit) as number[]
}

/**
 * An FTS5 replacement for a LIKE word filter over the alias `b` (for GET /api/bookmarks?q=): every
 * word must occur in the post text or author (porter-stemmed; the last word also as a prefix). Posts
 * still waiting in search_fts_queue are matched by LIKE, so the answer is right before indexing ends.
 */
export function searchTextClause(q: string): { clause: string; params: unknown[] } | null {
  const t = textQuery(q)
  if (!t) return null
  return {
    clause: `(b.id IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?) OR (b.id IN (SELECT bookmark_id FROM search_fts_queue) AND ${t.like}))`,
    params: [t.match, ...t.likeParams],
  }
}

const matchCache = new WeakMap<object, { stamp: string; byQ: Map<string, Set<number>> }>()

/**
 * The ids searchTextClause would match, as a set (null when `q` has no words). Reading the index's
 * matches once and cutting pages from them in memory is what keeps a `q` page fast at 100,000 posts:
 * joining every match back to its post row to sort it costs ten times more. Cached until anything
 * in the database changes (the index is written in the background).
 */
export function searchTextMatchIds(db: Db, q: string): Set<number> | null {
  const t = textQuery(q)
  if (!t) return null
  const stamp = dataStamp(db)
  let c = matchCache.get(sqliteOf(db))
  if (!c || c.stamp !== stamp) matchCache.set(sqliteOf(db), (c = { stamp, byQ: new Map() }))
  let ids = c.byQ.get(t.match)
  if (!ids) {
    ids = new Set(stmt(db, `SELECT rowid FROM search_fts WHERE search_fts MATCH ?
      UNION ALL SELECT b.id FROM search_fts_queue sq CROSS JOIN bookmarks b ON b.id = sq.bookmark_id WHERE ${t.like}`)
      .pluck().all(t.match, ...t.likeParams) as number[])
    if (c.byQ.size >= 50) c.byQ.delete(c.byQ.keys().next().value!)
    c.byQ.set(t.match, ids)
  }
  return ids
}

/**
 * `q` as a clause over the alias `b`. A query with no letters or digits at all (an emoji, `#`) has no
 * words to look up and is matched as a substring instead.
 */
export function textMatchClause(q: string): { clause: string; params: unknown[] } {
  const words = searchTextClause(q)
  if (words) return words
  const pattern = likePattern(q.trim())
  return { clause: LIKE_ANY, params: [pattern, pattern, pattern] }
}
