import { stateClauses, type StateFilter } from './member-state.ts'
import { searchTextClause } from './search.ts'

/** Filters over bookmarks, as SQL on the alias `b`. Shared by the list, the export and the mind map. */
export interface BookmarkFilter {
  category?: string
  source?: string
  /** Words; every word (or a longer form of it) must occur in the text, quoted text or author (see searchTextClause). */
  q?: string
  /** Handle without the @, compared case-insensitively. */
  author?: string
  media?: 'photo' | 'video' | 'any' | 'none'
  /** Epoch ms, inclusive. */
  from?: number
  to?: number
  uncategorized?: boolean
  /** Tag name, lower case. */
  tag?: string
  /** ISO 639-1 code (two lower-case letters). */
  lang?: string
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

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * `q` matches words through the full-text index (searchTextClause). A query with no letters or
 * digits at all (an emoji, `#`) has no words to look up and is matched as a substring instead.
 */
function textMatch(q: string, params: unknown[]): string[] {
  const words = searchTextClause(q)
  if (words) {
    params.push(...words.params)
    return [words.clause]
  }
  const pattern = `%${escapeLike(q.trim().toLowerCase())}%`
  params.push(pattern, pattern, pattern)
  return [`(lower(b.text) LIKE ? ESCAPE '\\' OR lower(b.author_handle) LIKE ? ESCAPE '\\' OR lower(b.author_name) LIKE ? ESCAPE '\\')`]
}

/**
 * `walk`: the clause feeds a sorted page whose matches are common enough that walking the sort index
 * until the page fills beats collecting every match and sorting it; the category is then
 * tested per row instead of driving the query.
 */
export function filterSql(f: BookmarkFilter, opts: { walk?: boolean } = {}): { where: string; params: unknown[] } {
  const clauses: string[] = []
  const params: unknown[] = []
  if (f.category !== undefined) {
    clauses.push(opts.walk
      ? 'EXISTS (SELECT 1 FROM bookmark_categories bc WHERE bc.bookmark_id = b.id AND bc.category_id = (SELECT c.id FROM categories c WHERE c.slug = ?))'
      : 'b.id IN (SELECT bc.bookmark_id FROM bookmark_categories bc JOIN categories c ON c.id = bc.category_id WHERE c.slug = ?)')
    params.push(f.category)
  }
  if (f.source !== undefined) {
    clauses.push('b.source = ?')
    params.push(f.source)
  }
  if (f.lang !== undefined) {
    // A language with few posts: the (lang, post_created_at) index finds them, already in date order.
    // A common one (walk): `+` keeps SQLite off that index, so a popular page walks the engagement
    // index and tests each row, instead of sorting every post in the language (45 ms for 44,000).
    clauses.push(opts.walk ? '+b.lang = ?' : 'b.lang = ?')
    params.push(f.lang)
  }
  if (f.author !== undefined) {
    // lower() on both sides (ASCII, like NOCASE) so the lower(author_handle) index serves it
    clauses.push('lower(b.author_handle) = lower(?)')
    params.push(f.author)
  }
  if (f.media === 'any') clauses.push('b.media_count > 0')
  else if (f.media === 'none') clauses.push('b.media_count = 0')
  else if (f.media === 'photo') clauses.push("b.media_count > 0 AND EXISTS (SELECT 1 FROM media m WHERE m.bookmark_id = b.id AND m.type = 'photo')")
  else if (f.media === 'video') clauses.push("b.media_count > 0 AND EXISTS (SELECT 1 FROM media m WHERE m.bookmark_id = b.id AND m.type IN ('video', 'animated_gif'))")
  if (f.from !== undefined) {
    clauses.push('b.post_created_at >= ?')
    params.push(f.from)
  }
  if (f.to !== undefined) {
    clauses.push('b.post_created_at <= ?')
    params.push(f.to)
  }
  if (f.uncategorized) clauses.push('NOT EXISTS (SELECT 1 FROM bookmark_categories bc WHERE bc.bookmark_id = b.id)')
  if (f.tag !== undefined) {
    clauses.push('b.id IN (SELECT bt.bookmark_id FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id WHERE t.name = ?)')
    params.push(f.tag)
  }
  if (f.q?.trim()) clauses.push(...textMatch(f.q, params))
  if (f.state) {
    const s = stateClauses(f.state, opts.walk === true)
    clauses.push(...s.clauses)
    params.push(...s.params)
  }
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
  JSON.stringify([f.category, f.source, f.q, f.author, f.media, f.from, f.to, f.uncategorized, f.tag, f.lang, f.threads, f.state && [f.state.userId, f.state.read, f.state.starred, f.state.hidden]])
