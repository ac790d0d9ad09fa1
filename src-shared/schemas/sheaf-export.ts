import { z } from 'zod'
import { zKnowledge } from './bookmarks.ts'
import { zEngagement, zNormalizedPost, zPostId, zPostMedia, zPostUrl, zQuotedPost } from './posts.ts'

/**
 * Sheaf's own export: everything needed to rebuild a library elsewhere, with no local ids or cache
 * paths. Posts keep the NormalizedPost fields (rawJson is the original exporter's record), and
 * links between posts use post ids, which survive the trip.
 */
export const SHEAF_EXPORT_FORMAT = 'sheaf-export'
export const SHEAF_EXPORT_VERSION = 1

export const zSheafCategory = z.object({
  name: z.string().min(1),
  slug: z.string().min(1),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'color must be #rrggbb'),
  description: z.string().default(''),
})
export type SheafCategory = z.infer<typeof zSheafCategory>

export const zSheafCategoryAssignment = z.object({
  slug: z.string().min(1),
  assignedBy: z.enum(['user', 'pipeline']),
  confidence: z.number().min(0).max(1).default(1),
})
export type SheafCategoryAssignment = z.infer<typeof zSheafCategoryAssignment>

/** Knowledge with `relatedPostIds` in place of database ids, plus the stage-1 entities. */
export const zSheafKnowledge = zKnowledge.omit({ relatedIds: true }).extend({
  relatedPostIds: z.array(zPostId).default([]),
  entities: z.record(z.string(), z.unknown()).nullable().default(null),
  kind: z.string().nullable().default(null),
  provider: z.string().nullable().default(null),
})
export type SheafKnowledge = z.infer<typeof zSheafKnowledge>

/** Media as posted plus what analysis learnt from it; never the local cache paths. */
export const zSheafMedia = zPostMedia.extend({
  ocrText: z.string().nullable().default(null),
  visualTags: z.array(z.string()).nullable().default(null),
  description: z.string().nullable().default(null),
})
export type SheafMedia = z.infer<typeof zSheafMedia>

export const zSheafNote = z.object({ userEmail: z.string(), text: z.string() })
export type SheafNote = z.infer<typeof zSheafNote>

/** The exporting member's own flags on the post (never anyone else's), restored for the account with that e-mail. */
export const zSheafState = z.object({ userEmail: z.string(), read: z.boolean(), starred: z.boolean(), hidden: z.boolean() })
export type SheafState = z.infer<typeof zSheafState>

/** A post merged into another (kept on the post that stayed), as it was saved. */
export const zSheafMergedPost = z.object({
  postId: zPostId,
  text: z.string(),
  authorHandle: z.string(),
  authorName: z.string(),
  postCreatedAt: z.string(),
  importedAt: z.string(),
  source: z.string(),
  lang: z.string().nullable().default(null),
  urls: z.array(zPostUrl).default([]),
  engagement: zEngagement.partial().nullable().default(null),
  quoted: zQuotedPost.nullable().default(null),
  rawJson: z.string(),
  mergedAt: z.string(),
})
export type SheafMergedPost = z.infer<typeof zSheafMergedPost>

export const zSheafBookmark = zNormalizedPost.extend({
  media: z.array(zSheafMedia),
  importedAt: z.string(),
  categories: z.array(zSheafCategoryAssignment).default([]),
  knowledge: zSheafKnowledge.nullable().default(null),
  tags: z.array(z.string()).default([]),
  notes: z.array(zSheafNote).default([]),
  states: z.array(zSheafState).default([]),
  /** Posts merged into this one. */
  merged: z.array(zSheafMergedPost).default([]),
  /** The post's place in its thread, for readers of the file; an import assembles threads from `inReplyToPostId`. */
  thread: z.object({ rootPostId: z.string(), position: z.number().int().min(1), size: z.number().int().min(2) }).nullable().optional(),
})
export type SheafBookmark = z.infer<typeof zSheafBookmark>

export const zSheafExport = z.object({
  format: z.literal(SHEAF_EXPORT_FORMAT),
  version: z.literal(SHEAF_EXPORT_VERSION),
  exportedAt: z.string(),
  categories: z.array(zSheafCategory),
  bookmarks: z.array(zSheafBookmark),
})
export type SheafExport = z.infer<typeof zSheafExport>

/** Per-post data beyond NormalizedPost that a Sheaf import hands to the store. */
export interface SheafBookmarkExtras {
  importedAt: string
  categories: SheafCategoryAssignment[]
  knowledge: SheafKnowledge | null
  tags: string[]
  notes: SheafNote[]
  states: SheafState[]
  merged: SheafMergedPost[]
  /** Same order as the post's media. */
  media: Array<Pick<SheafMedia, 'ocrText' | 'visualTags' | 'description'>>
}
