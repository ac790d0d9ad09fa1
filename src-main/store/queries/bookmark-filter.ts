import { dataStamp, sqliteOf, stmt, type Db } from '../db.ts'
import { stateClauses, type StateFilter } from './member-state.ts'

/** What a post must have: a photo, a video (or GIF), any media, no media at all, a link. */
export type PostHas = 'photo' | 'video' | 'media' | 'no-media' | 'link'

/**
 * Which posts, as SQL on the alias `b`: the one filter behind the list, its counts, the export, the
 * mind map and search (which states its own in SearchFilter and translates it here).
 */
export interface BookmarkFilter {
  /** A category's slug; `categoryId` names it by id. */
  category?: string
  categoryId?: number
  source?: string
  /** Words; every word (or a longer form of it) must occur in the text, quoted text or author (see searchTextClause). */
  q?: string
  /** Handle without the @, compared case-insensitively. */
  author?: string
  /** Every one listed. */
  has?: readonly PostHas[]
  /** Epoch ms, inclusive. */
  from?: number
  to?: number
  uncategorized?: boolean
  /** Tag name, lower case. */
  tag?: string
  /** ISO 639-1 code (two lower-case letters). */
  lang?: string
  /** FTS5 expressions every post must match (quoted phrases), and ones none may match (minus words). */
  mustMatch?: readonly string[]
  mustNotMatch?: readonly string[]
  /** `collapsed`: a thread shows as its root alone. */
  threads?: 'collapsed'
  /** One member's read, starred and hidden flags (lists only; the export and mind map show every post). */
  state?: StateFilter
}

export type SortKey = 'newest' | 'oldest' | 'popular' | 'imported'

export const ORDER_BY: Record<SortKey, string> = {
  newest: 'b.post_created_at DESC, b.id DESC',
  oldest: 'b.post_created_at ASC, b.id ASC',
  popular: 'b.engagement_score DESC, b.post_created_at DESC, b.id DESC',
  // Ids are given in the order posts were first imported.
  imported: 'b.id DESC',
}

// media_count (kept by the importer) spares a probe for the many posts without media.
const HAS: Record<PostHas, string> = {
  photo: "b.media_count > 0 AND EXISTS (SELECT 1 FROM media m WHERE m.bookmark_id = b.id AND m.type = 'photo')",
  video: "b.media_count > 0 AND EXISTS (SELECT 1 FROM media m WHERE m.bookmark_id = b.id AND m.type IN ('video', 'animated_gif'))",
  media: 'b.media_count > 0',
  'no-media': 'b.media_count = 0',
  link: 'json_valid(b.urls) AND json_array_length(b.urls) > 0',
}

/** The filter's conditions, each with its parameters (none when nothing filters). See filterSql for `walk`. */
export function filterClauses(f: BookmarkFilter, opts: { walk?: boolean } = {}): { clauses: string[]; params: unknown[] } {
  const clauses: string[] = []
  const params: unknown[] = []
  const add = (clause: string, ...values: unknown[]) => {
    clauses.push(clause)
    params.push(...values)
  }
  if (f.categoryId !== undefined) add('b.id IN (SELECT bc.bookmark_id FROM bookmark_categories bc WHERE bc.category_id = ?)', f.categoryId)
  else if (f.category !== undefined) {
    add(opts.walk
      ? 'EXISTS (SELECT 1 FROM bookmark_categories bc WHERE bc.bookmark_id = b.id AND bc.category_id = (SELECT c.id FROM categories c WHERE c.slug = ?))'
      : 'b.id IN (SELECT bc.bookmark_id FROM bookmark_categories bc JOIN categories c ON c.id = bc.category_id WHERE c.slug = ?)', f.category)
  }
  if (f.source !== undefined) add('b.source = ?', f.source)
  // A language with few posts: the (lang, post_created_at) index finds them, already in date order.
  // A common one (walk): `+` keeps SQLite off that index, so a popular page walks the engagement
  // index and tests each row, instead of sorting every post in the language (45 ms for 44,000).
  if (f.lang !== undefined) add(opts.walk ? '+b.lang = ?' : 'b.lang = ?', f.lang)
  // lower() on both sides (ASCII, like NOCASE) so the lower(author_handle) index serves it
  if (f.author !== undefined) add('lower(b.author_handle) = lower(?)', f.author)
  for (const h of f.has ?? []) add(HAS[h])
  if (f.from !== undefined) add('b.post_created_at >= ?', f.from)
  if (f.to !== undefined) add('b.post_created_at <= ?', f.to)
  if (f.uncategorized) add('NOT EXISTS (SELECT 1 FROM bookmark_categories bc WHERE bc.bookmark_id = b.id)')
  if (f.tag !== undefined) add('b.id IN (SELECT bt.bookmark_id FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id WHERE t.name = ?)', f.tag)
  for (const m of f.mustMatch ?? []) add('b.id IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?)', m)
  for (const m of f.mustNotMatch ?? []) add('b.id NOT IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?)', m)
  if (f.q?.trim()) {
    const t = textMatchClause(f.q)
    add(t.clause, ...t.params)
  }
  if (f.state) {
    const s = stateClauses(f.state, opts.walk === true)
    clauses.push(...s.clauses)
    params.push(...s.params)
  }
  return { clauses, params }
}

/**
 * The filter as a WHERE clause (empty when nothing filters). `walk`: the clause feeds a sorted page
 * whose matches are common enough that walking the sort index until the page fills beats collecting
 * every match and sorting it; the category is then tested per row instead of driving the query.
 */
export function filterSql(f: BookmarkFilter, opts: { walk?: boolean } = {}): { where: string; params: unknown[] } {
  const { clauses, params } = filterClauses(f, opts)
  if (f.threads === 'collapsed') return { where: collapsed(clauses), params }
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params }
}

/**
 * One card per thread, its root, for the threads that have a part matching the clauses (so words
 * in the third part find the thread); with no clauses, every root and every post outside a thread.
 */
function collapsed(clauses: string[]): string {
  if (clauses.length === 0) return 'WHERE NOT EXISTS (SELECT 1 FROM thread_parts t WHERE t.bookmark_id = b.id AND t.position > 1)'
  return `WHERE b.id IN (SELECT coalesce((SELECT t.root_id FROM thread_parts t WHERE t.bookmark_id = b.id), b.id) FROM bookmarks b WHERE ${clauses.join(' AND ')})`
}

/**
 * The count query for a filter. One category or one tag alone is counted from its link table's covering
 * index (foreign keys keep every link pointing at a post): ~1 ms where probing each post costs ~20 ms per 10,000.
 */
export function countSql(f: BookmarkFilter): { sql: string; params: unknown[] } {
  const alone = Object.values(f).filter((v) => v !== undefined && v !== false && v !== '').length === 1
  if (alone && f.category !== undefined) {
    return { sql: 'SELECT count(*) FROM bookmark_categories bc JOIN categories c ON c.id = bc.category_id WHERE c.slug = ?', params: [f.category] }
  }
  if (alone && f.tag !== undefined) return { sql: 'SELECT count(*) FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id WHERE t.name = ?', params: [f.tag] }
  const { where, params } = filterSql(f)
  return { sql: `SELECT count(*) FROM bookmarks b ${where}`, params }
}

/** A stable key for caching counts per filter. */
export const filterKey = (f: BookmarkFilter): string =>
  JSON.stringify([f.category, f.categoryId, f.source, f.q, f.author, f.has, f.from, f.to, f.uncategorized, f.tag, f.lang, f.mustMatch, f.mustNotMatch,
    f.threads, f.state && [f.state.userId, f.state.read, f.state.starred, f.state.hidden]])

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
