import type { Bookmark, BookmarkDetail, BookmarkList } from '../../src-shared/schemas/bookmarks.ts'
import type { Category } from '../../src-shared/schemas/categories.ts'
import type { SearchResponse } from '../../src-shared/schemas/search.ts'
import type { Stats } from '../../src-shared/schemas/stats.ts'

/** Compact text for an assistant to read; the full answer goes in structuredContent beside it. */
const oneLine = (s: string, max: number): string => {
  const flat = s.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
const day = (iso: string) => iso.slice(0, 10)
const cats = (b: Bookmark) => (b.categories.length ? ` [${b.categories.map((c) => c.slug).join(', ')}]` : '')

export const postLine = (b: Bookmark): string =>
  `#${b.id} @${b.authorHandle}, ${day(b.postCreatedAt)}${cats(b)}: ${oneLine(b.text, 280)}`

export const searchText = (r: SearchResponse): string => {
  if (r.results.length === 0) return `No saved posts match "${r.query}".${r.understood.notes.map((n) => ` ${n}`).join('')}`
  const lines = r.results.map((x, i) => `${i + 1}. ${postLine(x.bookmark)}\n   relevance ${x.relevance.toFixed(2)}; why: ${x.reason}`)
  return [`${r.results.length} posts for "${r.query}":`, ...lines, ...r.understood.notes].join('\n')
}

export const listText = (l: BookmarkList): string => {
  if (l.total === 0) return 'No saved posts match these filters.'
  const from = (l.page - 1) * l.limit + 1
  const head = `Posts ${from}-${from + l.bookmarks.length - 1} of ${l.total} (page ${l.page}):`
  return [head, ...l.bookmarks.map(postLine)].join('\n')
}

export const detailText = (d: Omit<BookmarkDetail, 'rawJson'>): string => {
  const lines = [`#${d.id} by ${d.authorName} (@${d.authorHandle}), posted ${d.postCreatedAt}`, d.text]
  if (d.categories.length) lines.push(`Categories: ${d.categories.map((c) => `${c.name} (${c.slug})`).join(', ')}`)
  if (d.urls.length) lines.push(`Links: ${d.urls.map((u) => u.expandedUrl).join(' ')}`)
  if (d.quoted) lines.push(`Quotes @${d.quoted.authorHandle}: ${oneLine(d.quoted.text, 280)}`)
  if (d.knowledge) lines.push(`Summary: ${d.knowledge.summary}`, `Tags: ${d.knowledge.tags.join(', ') || 'none'}; action: ${d.knowledge.action}; sentiment: ${d.knowledge.sentiment}`)
  if (d.note) lines.push(`Your note: ${d.note}`)
  return lines.join('\n')
}

export const categoriesText = (cs: Category[]): string =>
  cs.length === 0
    ? 'The library has no categories yet.'
    : cs.map((c) => `${c.slug}: ${c.name} (${c.bookmarkCount} posts)${c.description ? ` - ${oneLine(c.description, 160)}` : ''}`).join('\n')

export const statsText = (s: Stats): string => [
  `${s.totalBookmarks} saved posts (${s.categorizedBookmarks} in categories, ${s.uncategorizedBookmarks} not; ${s.analyzedBookmarks} analysed), ${s.totalCategories} categories, ${s.totalMediaItems} media items.`,
  `Last import: ${s.recentImport ?? 'never'}.`,
  s.topCategories.length ? `Top categories: ${s.topCategories.map((c) => `${c.name} ${c.count}`).join(', ')}.` : '',
  s.topAuthors.length ? `Top authors: ${s.topAuthors.slice(0, 5).map((a) => `@${a.handle} ${a.count}`).join(', ')}.` : '',
].filter(Boolean).join('\n')
