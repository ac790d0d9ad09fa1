import { stateClauses, type StateFilter } from './member-state.ts'
import { textMatchClause } from './text-match.ts'

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
