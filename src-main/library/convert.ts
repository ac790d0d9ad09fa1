import { hash } from 'node:crypto'
import type { Bookmark, CategorySummary, Media } from '../../src-shared/schemas/bookmarks.ts'
import type { Engagement, NormalizedPost, PostMedia, PostUrl, QuotedPost } from '../../src-shared/schemas/posts.ts'
import type { BookmarkRecord, BookmarkValues, BookmarkWithRaw, MediaRecord } from '../store/index.ts'

export const iso = (ms: number): string => new Date(ms).toISOString()

const n = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : 0)

/** The `popular` sort key. */
export const engagementScore = (e: Engagement): number =>
  n(e.likes) + n(e.reposts) + n(e.replies) + n(e.quotes) + n(e.bookmarks)

/** Hash of what the pipeline reads (text, links, media); when it changes the post is due for analysis again. */
export function contentHash(p: Pick<NormalizedPost, 'text' | 'urls' | 'media' | 'quoted'>): string {
  const basis = JSON.stringify([
    p.text,
    p.urls.map((u) => u.expandedUrl),
    p.media.map((m) => [m.type, m.url, m.altText]),
    p.quoted ? p.quoted.text : null,
  ])
  return hash('sha1', basis) // one-shot: half the cost of createHash per post, same digest
}

function parseTime(s: string): number {
  const ms = Date.parse(s)
  if (Number.isNaN(ms)) throw new Error(`postCreatedAt is not a date: ${s}`)
  return ms
}

export function postToValues(p: NormalizedPost): BookmarkValues {
  return {
    postId: p.postId,
    text: p.text,
    authorHandle: p.authorHandle,
    authorName: p.authorName,
    postCreatedAt: parseTime(p.postCreatedAt),
    source: p.source,
    lang: p.lang,
    conversationId: p.conversationId,
    inReplyToPostId: p.inReplyToPostId,
    urls: JSON.stringify(p.urls),
    engagement: JSON.stringify(p.engagement),
    quoted: p.quoted ? JSON.stringify(p.quoted) : null,
    engagementScore: engagementScore(p.engagement),
    mediaCount: p.media.length,
    rawJson: p.rawJson,
    contentHash: contentHash(p),
  }
}

const parseJson = <T>(s: string | null, fallback: T): T => {
  if (s === null || s === '') return fallback
  try {
    return JSON.parse(s) as T
  } catch {
    return fallback
  }
}

const EMPTY_ENGAGEMENT: Engagement = { likes: null, reposts: null, replies: null, quotes: null, bookmarks: null, views: null }

export const urlsOf = (r: Pick<BookmarkRecord, 'urls'>): PostUrl[] => parseJson<PostUrl[]>(r.urls, [])
export const engagementOf = (r: Pick<BookmarkRecord, 'engagement'>): Engagement => ({ ...EMPTY_ENGAGEMENT, ...parseJson<Partial<Engagement>>(r.engagement, {}) })
export const quotedOf = (r: Pick<BookmarkRecord, 'quoted'>): QuotedPost | null => parseJson<QuotedPost | null>(r.quoted, null)

export const toPostMedia = (m: MediaRecord): PostMedia => ({
  type: m.type, url: m.url, thumbnailUrl: m.thumbnailUrl, videoUrl: m.videoUrl, altText: m.altText,
  width: m.width, height: m.height, durationMs: m.durationMs,
})

/** The stored post back in the importers' shape (what mergePost and the Sheaf export need). */
export function recordToPost(r: BookmarkWithRaw, media: MediaRecord[]): NormalizedPost {
  return {
    postId: r.postId,
    text: r.text,
    authorHandle: r.authorHandle,
    authorName: r.authorName,
    postCreatedAt: iso(r.postCreatedAt),
    urls: urlsOf(r),
    media: media.map(toPostMedia),
    engagement: engagementOf(r),
    lang: r.lang,
    conversationId: r.conversationId,
    inReplyToPostId: r.inReplyToPostId,
    quoted: quotedOf(r),
    source: r.source,
    rawJson: r.rawJson,
  }
}

/**
 * A post back from its row values (what the importer's parse step hands over), for merging into a
 * stored post: the same reading as recordToPost, so both sides of a merge are alike.
 */
export function valuesToPost(v: BookmarkValues, media: PostMedia[]): NormalizedPost {
  return {
    postId: v.postId,
    text: v.text,
    authorHandle: v.authorHandle,
    authorName: v.authorName,
    postCreatedAt: iso(v.postCreatedAt),
    urls: urlsOf(v),
    media,
    engagement: engagementOf(v),
    lang: v.lang,
    conversationId: v.conversationId,
    inReplyToPostId: v.inReplyToPostId,
    quoted: quotedOf(v),
    source: v.source,
    rawJson: v.rawJson,
  }
}

/** Same-origin address of a cached media file (served by the media route once the pipeline fetched it). */
export const localMediaUrl = (m: MediaRecord): string | null => (m.cachePath ? `/api/media/${m.id}` : null)

export const toMedia = (m: MediaRecord): Media => ({
  type: m.type, url: m.url, thumbnailUrl: m.thumbnailUrl, videoUrl: m.videoUrl, altText: m.altText, localUrl: localMediaUrl(m),
})

export function toBookmark(r: BookmarkRecord, categories: CategorySummary[], media: MediaRecord[]): Bookmark {
  return {
    id: r.id,
    postId: r.postId,
    text: r.text,
    authorHandle: r.authorHandle,
    authorName: r.authorName,
    postCreatedAt: iso(r.postCreatedAt),
    importedAt: iso(r.importedAt),
    source: r.source,
    categories,
    media: media.map(toMedia),
    urls: urlsOf(r),
    engagement: engagementOf(r),
    lang: r.lang,
    threadSize: r.threadSize ?? 1,
    threadPosition: r.threadPosition ?? 1,
  }
}

/** Groups rows by a numeric key, keeping order. */
export function groupBy<T>(rows: readonly T[], key: (r: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>()
  for (const r of rows) {
    const k = key(r)
    const list = out.get(k)
    if (list) list.push(r)
    else out.set(k, [r])
  }
  return out
}

export const postUrl = (handle: string, postId: string): string =>
  `https://x.com/${handle && handle !== 'unknown' ? handle : 'i'}/status/${postId}`
