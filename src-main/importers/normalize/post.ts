import type { Engagement, NormalizedPost, PostMedia, PostUrl, QuotedPost } from '../../../src-shared/schemas/posts.ts'

export const UNKNOWN_HANDLE = 'unknown'

export const noEngagement = (): Engagement => ({
  likes: null, reposts: null, replies: null, quotes: null, bookmarks: null, views: null,
})

export interface PostDraft {
  postId: string
  text: string
  authorHandle?: string | null
  authorName?: string | null
  postCreatedAt: string
  urls?: PostUrl[]
  media?: PostMedia[]
  engagement?: Partial<Engagement>
  lang?: string | null
  conversationId?: string | null
  inReplyToPostId?: string | null
}

export function toQuoted(d: PostDraft): QuotedPost {
  return {
    postId: d.postId,
    text: d.text,
    authorHandle: d.authorHandle?.trim() || UNKNOWN_HANDLE,
    authorName: d.authorName?.trim() ?? '',
    postCreatedAt: d.postCreatedAt,
    urls: d.urls ?? [],
    media: d.media ?? [],
    engagement: { ...noEngagement(), ...d.engagement },
    lang: d.lang ?? null,
    conversationId: d.conversationId ?? null,
    inReplyToPostId: d.inReplyToPostId ?? null,
  }
}

export function toPost(d: PostDraft, extra: { quoted?: QuotedPost | null; source: string; raw: unknown }): NormalizedPost {
  return {
    ...toQuoted(d),
    quoted: extra.quoted ?? null,
    source: extra.source,
    rawJson: typeof extra.raw === 'string' ? extra.raw : JSON.stringify(extra.raw),
  }
}
