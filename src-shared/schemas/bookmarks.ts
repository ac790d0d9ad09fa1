import { z } from 'zod'
import { zEngagement, zMediaType, zPostUrl, zQuotedPost } from './posts.ts'

export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 100

export const zCategorySummary = z.object({
  name: z.string(),
  slug: z.string(),
  color: z.string(),
  /** How sure the analysis was (0-1; 1 for a person's choice). */
  confidence: z.number().min(0).max(1).optional(),
  /** Who put the post there: a person, or the analysis (which a person may review). */
  assignedBy: z.enum(['user', 'pipeline']).optional(),
})
export type CategorySummary = z.infer<typeof zCategorySummary>

export const zMedia = z.object({
  type: zMediaType,
  url: z.string(),
  thumbnailUrl: z.string(),
  videoUrl: z.string().nullable(),
  altText: z.string().nullable(),
  /** Same-origin URL of the locally cached copy, once the pipeline fetched it. */
  localUrl: z.string().nullable(),
})
export type Media = z.infer<typeof zMedia>

/** The caller's own flags on a post (GET /api/bookmarks, detail, search); nobody else sees them, admins included. */
export const zMemberState = z.object({ read: z.boolean(), starred: z.boolean(), hidden: z.boolean() })
export type MemberState = z.infer<typeof zMemberState>

export const zBookmark = z.object({
  id: z.number().int(),
  postId: z.string(),
  text: z.string(),
  authorHandle: z.string(),
  authorName: z.string(),
  postCreatedAt: z.string(),
  importedAt: z.string(),
  source: z.string(),
  categories: z.array(zCategorySummary),
  media: z.array(zMedia),
  urls: z.array(zPostUrl),
  engagement: zEngagement,
  /** ISO 639-1 (X's own code or detected at import), or null when the post has no clear language. */
  lang: z.string().nullable(),
  /** Parts in this post's thread (a run of one author's replies to their own posts), 1 outside a thread. */
  threadSize: z.number().int().min(1),
  /** This post's place in reading order (1 = the thread's root; 1 outside a thread). */
  threadPosition: z.number().int().min(1),
  /** The signed-in person's own read/starred/hidden flags (lists, detail and search results carry it). */
  state: zMemberState.optional(),
})
export type Bookmark = z.infer<typeof zBookmark>

export const SENTIMENTS = ['positive', 'negative', 'neutral', 'mixed'] as const
export const ACTIONS = ['read_later', 'reference', 'try', 'watch', 'share', 'archive'] as const

export const zKnowledge = z.object({
  summary: z.string(),
  action: z.enum(ACTIONS),
  tags: z.array(z.string()),
  sentiment: z.enum(SENTIMENTS),
  confidence: z.number().min(0).max(1),
  relatedIds: z.array(z.number().int()),
  analyzedAt: z.string(),
  ossReport: z.unknown().nullable(),
})
export type Knowledge = z.infer<typeof zKnowledge>

/** Why two saved posts are shown as copies of each other (see docs/understanding.md#duplicates). */
export const DUPLICATE_REASONS = ['same_link', 'same_quote', 'same_text', 'same_meaning', 'translation'] as const
export const zDuplicateReason = z.enum(DUPLICATE_REASONS)
export type DuplicateReason = z.infer<typeof zDuplicateReason>

/** Another saved post that looks like a copy of this one. */
export const zDuplicate = z.object({
  id: z.number().int(),
  postId: z.string(),
  authorHandle: z.string(),
  /** The first 200 characters. */
  text: z.string(),
  reasons: z.array(zDuplicateReason).min(1),
})
export type Duplicate = z.infer<typeof zDuplicate>

/** A post folded into this one by a merge, as it was saved. */
export const zMergedRecord = z.object({
  postId: z.string(),
  authorHandle: z.string(),
  authorName: z.string(),
  text: z.string(),
  postCreatedAt: z.string(),
  importedAt: z.string(),
  source: z.string(),
  mergedAt: z.string(),
})
export type MergedRecord = z.infer<typeof zMergedRecord>

/** A thread read as one piece: its parts in reading order (docs/api/library.md#threads). */
export const zThread = z.object({
  /** The root's id: the earliest saved part (the one whose parent is not in the library). */
  rootId: z.number().int(),
  /** This post's place in `posts`, from 1. */
  position: z.number().int().min(1),
  posts: z.array(z.object({ id: z.number().int(), text: z.string(), postCreatedAt: z.string() })).min(2),
})
export type Thread = z.infer<typeof zThread>

/** Another saved post this one replies to or quotes. */
export const zLinkedPost = z.object({
  id: z.number().int(),
  postId: z.string(),
  authorHandle: z.string(),
  /** The first 200 characters (plain text). */
  text: z.string(),
})
export type LinkedPost = z.infer<typeof zLinkedPost>

export const zBookmarkDetail = zBookmark.extend({
  rawJson: z.string(),
  knowledge: zKnowledge.nullable(),
  quoted: zQuotedPost.nullable(),
  /** The signed-in person's private note. */
  note: z.string().nullable(),
  /** Other saved posts that look like copies of this one (at most 20), and why. */
  duplicates: z.array(zDuplicate),
  /** Posts merged into this one ("also saved as"). */
  merged: z.array(zMergedRecord),
  thread: zThread.nullable(),
  /** The post this one replies to, when it is in the library (a reply to oneself is also a thread part). */
  inReplyTo: zLinkedPost.nullable(),
  /** The post this one quotes, when it is in the library. */
  quotes: zLinkedPost.nullable(),
})
export type BookmarkDetail = z.infer<typeof zBookmarkDetail>

export const zBookmarkList = z.object({
  bookmarks: z.array(zBookmark),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
})
export type BookmarkList = z.infer<typeof zBookmarkList>
