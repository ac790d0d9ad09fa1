import { z } from 'zod'

/** What every importer produces: one saved post, in one shape, whatever tool exported it. */
export const MEDIA_TYPES = ['photo', 'video', 'animated_gif'] as const
export const zMediaType = z.enum(MEDIA_TYPES)

export const zPostMedia = z.object({
  type: zMediaType,
  /** Full-size image URL (for video: the poster image). */
  url: z.string(),
  thumbnailUrl: z.string(),
  /** Best video variant (highest-bitrate mp4), for video and animated_gif. */
  videoUrl: z.string().nullable(),
  altText: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
})
export type PostMedia = z.infer<typeof zPostMedia>

export const zPostUrl = z.object({
  /** The link as written in the post (often t.co). */
  url: z.string(),
  /** The real destination. */
  expandedUrl: z.string(),
  displayUrl: z.string().nullable(),
})
export type PostUrl = z.infer<typeof zPostUrl>

export const zEngagement = z.object({
  likes: z.number().int().nullable(),
  reposts: z.number().int().nullable(),
  replies: z.number().int().nullable(),
  quotes: z.number().int().nullable(),
  bookmarks: z.number().int().nullable(),
  views: z.number().int().nullable(),
})
export type Engagement = z.infer<typeof zEngagement>

/** Post ids are decimal strings end to end: they overflow a JS number. */
export const zPostId = z.string().regex(/^\d{1,20}$/, 'post id must be a decimal string')

const post = {
  postId: zPostId,
  text: z.string(),
  authorHandle: z.string(),
  authorName: z.string(),
  /** ISO 8601 UTC. */
  postCreatedAt: z.string(),
  urls: z.array(zPostUrl),
  media: z.array(zPostMedia),
  engagement: zEngagement,
  lang: z.string().nullable(),
  conversationId: z.string().nullable(),
  inReplyToPostId: z.string().nullable(),
}

export const zQuotedPost = z.object(post)
export type QuotedPost = z.infer<typeof zQuotedPost>

export const zNormalizedPost = z.object({
  ...post,
  quoted: zQuotedPost.nullable(),
  /** bookmark, like, own_post, or a browser-session form such as `chrome_cookie`. */
  source: z.string(),
  /** The original record, serialised as it came. */
  rawJson: z.string(),
})
export type NormalizedPost = z.infer<typeof zNormalizedPost>

/** Import formats Sheaf recognises from a file's content. */
export const IMPORT_FORMATS = [
  'x-graphql',
  'x-archive',
  'x-archive-zip',
  'siftly',
  'twitter-web-exporter-json',
  'twitter-web-exporter-csv',
  'twillot',
  'flat-fetch',
  'twitter-v1',
  'sheaf',
] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]

export const zImportResult = z.object({
  imported: z.number().int(),
  duplicates: z.number().int(),
  errors: z.number().int(),
  updated: z.number().int(),
  format: z.string(),
  /** Up to 100 per-record reasons. */
  errorDetails: z.array(z.object({ index: z.number().int(), postId: z.string().nullable(), reason: z.string() })),
})
export type ImportResult = z.infer<typeof zImportResult>
