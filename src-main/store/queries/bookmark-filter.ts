/** Filters over bookmarks, as SQL on the alias `b`. Shared by the list, the export and the mind map. */
export interface BookmarkFilter {
  category?: string
  source?: string
  /** Words; every word must occur in the text, author handle or author name (case-insensitive). */
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
}

export type SortKey = 'newest' | 'oldest' | 'popular'

export const ORDER_BY: Record<SortKey, string> = {
  newest: 'b.post_created_at DESC, b.id DESC',
  oldest: 'b.post_created_at ASC, b.id ASC',
  popular: 'b.engagement_score DESC, b.post_created_at DESC, b.id DESC',
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`)

export function splitWords(q: string): string[] {
  return [...new Set(q.toLowerCase().split(/\s+/).map((w) => w.trim()).filter(Boolean))].slice(0, 10)
}

/**
 * The one place plain-text matching lives; a full-text index can replace this clause without
 * touching callers. LIKE is case-insensitive for ASCII; lower() on both sides covers the rest.
 */
function textMatch(words: string[], params: unknown[]): string[] {
  return words.map((w) => {
    const ascii = /^[\x00-\x7f]*$/.test(w)
    const pattern = `%${escapeLike(w)}%`
    params.push(pattern, pattern, pattern)
    return ascii
      ? `(b.text LIKE ? ESCAPE '\\' OR b.author_handle LIKE ? ESCAPE '\\' OR b.author_name LIKE ? ESCAPE '\\')`
      : `(lower(b.text) LIKE ? ESCAPE '\\' OR lower(b.author_handle) LIKE ? ESCAPE '\\' OR lower(b.author_name) LIKE ? ESCAPE '\\')`
  })
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
  // LIKE, not searchTextClause: the list promises substring matches, which word matching cannot give
  const words = f.q ? splitWords(f.q) : []
  if (words.length) clauses.push(...textMatch(words, params))
  return { where: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params }
}

/** A stable key for caching counts per filter. */
export const filterKey = (f: BookmarkFilter): string =>
  JSON.stringify([f.category, f.source, f.q, f.author, f.media, f.from, f.to, f.uncategorized, f.tag])
