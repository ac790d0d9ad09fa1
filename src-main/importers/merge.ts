import type { Engagement, NormalizedPost, PostMedia, PostUrl, QuotedPost } from '../../src-shared/schemas/posts.ts'
import { UNKNOWN_HANDLE } from './normalize/post.ts'

const isUnknown = (handle: string) => handle.trim() === '' || handle.trim().toLowerCase() === UNKNOWN_HANDLE

const maxCount = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b))

function mergeEngagement(a: Engagement, b: Engagement): Engagement {
  return {
    likes: maxCount(a.likes, b.likes), reposts: maxCount(a.reposts, b.reposts), replies: maxCount(a.replies, b.replies),
    quotes: maxCount(a.quotes, b.quotes), bookmarks: maxCount(a.bookmarks, b.bookmarks), views: maxCount(a.views, b.views),
  }
}

const richness = (u: PostUrl) => (u.url !== u.expandedUrl ? 2 : 0) + (u.displayUrl ? 1 : 0)

/** Union by link; the same destination known as t.co + expansion beats the bare destination. */
function mergeUrls(a: PostUrl[], b: PostUrl[]): PostUrl[] {
  const out = a.map((u) => ({ ...u }))
  for (const u of b) {
    const i = out.findIndex((x) => x.url === u.url || x.expandedUrl === u.expandedUrl)
    if (i < 0) out.push({ ...u })
    else if (richness(u) > richness(out[i])) out[i] = { ...u }
  }
  return out
}

const blank = (v: string | null) => v === null || v === ''

function fillMedia(base: PostMedia, other: PostMedia | undefined): PostMedia {
  if (!other || other.type !== base.type) return base
  return {
    ...base,
    url: base.url || other.url,
    thumbnailUrl: base.thumbnailUrl || other.thumbnailUrl,
    videoUrl: blank(base.videoUrl) ? other.videoUrl : base.videoUrl,
    altText: blank(base.altText) ? other.altText : base.altText,
    width: base.width ?? other.width,
    height: base.height ?? other.height,
    durationMs: base.durationMs ?? other.durationMs,
  }
}

/** More items win; at equal counts each item is completed from its counterpart. */
function mergeMedia(a: PostMedia[], b: PostMedia[]): PostMedia[] {
  const [base, other] = b.length > a.length ? [b, a] : [a, b]
  return base.map((m, i) => fillMedia(m, other[i]))
}

type Core = Omit<QuotedPost, 'postId'>

function mergeCore(a: QuotedPost, b: QuotedPost): Core {
  const authorFromB = isUnknown(a.authorHandle) && !isUnknown(b.authorHandle)
  return {
    text: b.text.trim().length > a.text.trim().length ? b.text : a.text,
    authorHandle: authorFromB ? b.authorHandle : a.authorHandle,
    authorName: authorFromB ? (b.authorName || a.authorName) : (a.authorName || (isUnknown(b.authorHandle) ? '' : b.authorName)),
    postCreatedAt: a.postCreatedAt || b.postCreatedAt,
    urls: mergeUrls(a.urls, b.urls),
    media: mergeMedia(a.media, b.media),
    engagement: mergeEngagement(a.engagement, b.engagement),
    lang: a.lang ?? b.lang,
    conversationId: a.conversationId ?? b.conversationId,
    inReplyToPostId: a.inReplyToPostId ?? b.inReplyToPostId,
  }
}

/**
 * The same post seen twice: richer data wins field by field (longer text, more media, a real
 * author over `unknown`, counts over null and the larger count, a quoted post over none, expanded
 * URLs over bare ones), and nothing the existing record had is lost. Pure.
 */
export function mergePost(existing: NormalizedPost, incoming: NormalizedPost): { post: NormalizedPost; changed: boolean } {
  const quoted = existing.quoted && incoming.quoted && existing.quoted.postId === incoming.quoted.postId
    ? { postId: existing.quoted.postId, ...mergeCore(existing.quoted, incoming.quoted) }
    : (existing.quoted ?? incoming.quoted)
  const post: NormalizedPost = {
    postId: existing.postId,
    ...mergeCore(existing, incoming),
    quoted,
    source: existing.source || incoming.source,
    rawJson: existing.rawJson || incoming.rawJson,
  }
  return { post, changed: !deepEqual(post, existing) }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  const ka = Object.keys(a as object)
  const kb = Object.keys(b as object)
  if (ka.length !== kb.length) return false
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}
