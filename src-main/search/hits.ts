import type { Bookmark } from '../../src-shared/schemas/bookmarks.ts'
import type { Engagement, PostUrl } from '../../src-shared/schemas/posts.ts'
import { searchHitCategories, searchHitMedia, searchHitRows, type Db } from '../store/index.ts'

/** Search's answers in the shapes the API sends: the library's list item, and a one-line title for the command palette. */

const ENGAGEMENT_KEYS = ['likes', 'reposts', 'replies', 'quotes', 'bookmarks', 'views'] as const

const parseJson = <T>(s: string | null, fallback: T): T => {
  try {
    return s ? (JSON.parse(s) as T) : fallback
  } catch {
    return fallback
  }
}

/** Each count a number or null, in ENGAGEMENT_KEYS' order. */
function engagementOf(e: Partial<Engagement>): Engagement {
  const out = {} as Record<(typeof ENGAGEMENT_KEYS)[number], number | null>
  for (const k of ENGAGEMENT_KEYS) out[k] = typeof e[k] === 'number' ? e[k] : null
  return out as Engagement
}

/** Search hits in the library's list-item shape (zBookmark), in the order of `ids`. */
export function bookmarksForHits(db: Db, ids: readonly number[]): Map<number, Bookmark> {
  const media = new Map<number, Bookmark['media']>()
  for (const m of searchHitMedia(db, ids)) {
    const list = media.get(m.bookmarkId) ?? []
    list.push({
      type: m.type, url: m.url, thumbnailUrl: m.thumbnailUrl, videoUrl: m.videoUrl, altText: m.altText,
      localUrl: m.cachePath ? `/api/media/${m.id}` : null,
    })
    media.set(m.bookmarkId, list)
  }
  const cats = new Map<number, Bookmark['categories']>()
  for (const c of searchHitCategories(db, ids)) {
    const list = cats.get(c.bookmarkId) ?? []
    list.push({ name: c.name, slug: c.slug, color: c.color })
    cats.set(c.bookmarkId, list)
  }
  const out = new Map<number, Bookmark>()
  for (const r of searchHitRows(db, ids)) {
    const engagement = engagementOf(parseJson<Partial<Engagement>>(r.engagement, {}))
    out.set(r.id, {
      id: r.id,
      postId: r.postId,
      text: r.text,
      authorHandle: r.authorHandle,
      authorName: r.authorName,
      postCreatedAt: new Date(r.postCreatedAt).toISOString(),
      importedAt: new Date(r.importedAt).toISOString(),
      source: r.source,
      categories: cats.get(r.id) ?? [],
      media: media.get(r.id) ?? [],
      urls: parseJson<PostUrl[]>(r.urls, []),
      engagement,
      lang: r.lang,
      threadSize: r.threadSize ?? 1,
      threadPosition: r.threadPosition ?? 1,
    })
  }
  return out
}

/** Text without links and leading reply handles, whitespace collapsed, common entities decoded. */
const stripLinks = (text: string): string =>
  text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/https?:\/\/\S+/gi, ' ').replace(/^(\s*@\w{1,15})+\s*/, '').replace(/\s+/g, ' ').trim()

/** One line for the command palette: the post's first line without links, cut at a word near 90 chars. */
export function titleOf(text: string): string {
  const line = stripLinks(text.split('\n').find((l) => l.trim()) ?? '')
  if (line.length <= 90) return line || '(no text)'
  const cut = line.slice(0, 90)
  const at = cut.lastIndexOf(' ')
  return `${(at > 50 ? cut.slice(0, at) : cut).trimEnd()}…`
}
