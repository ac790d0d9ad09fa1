import type { NormalizedPost, PostMedia } from '../../../src-shared/schemas/posts.ts'

/** A NormalizedPost with defaults, for hand-written cases. */
export const makePost = (text: string, extra: Partial<NormalizedPost> = {}): NormalizedPost => ({
  postId: '1',
  text,
  authorHandle: 'someone',
  authorName: 'Someone',
  postCreatedAt: '2026-01-01T00:00:00.000Z',
  urls: [],
  media: [],
  engagement: { likes: null, reposts: null, replies: null, quotes: null, bookmarks: null, views: null },
  lang: 'en',
  conversationId: null,
  inReplyToPostId: null,
  quoted: null,
  source: 'bookmark',
  rawJson: '{}',
  ...extra,
})

export const media = (type: PostMedia['type'], extra: Partial<PostMedia> = {}): PostMedia => ({
  type,
  url: 'https://pbs.twimg.com/media/x.jpg',
  thumbnailUrl: 'https://pbs.twimg.com/media/x.jpg',
  videoUrl: null,
  altText: null,
  width: 1200,
  height: 800,
  durationMs: type === 'photo' ? null : 60_000,
  ...extra,
})

export const link = (expandedUrl: string) => ({ url: 'https://t.co/x1', expandedUrl, displayUrl: null })
