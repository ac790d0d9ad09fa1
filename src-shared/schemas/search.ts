import { z } from 'zod'
import { zBookmark } from './bookmarks.ts'

export const SEARCH_DEFAULT_LIMIT = 10
/** Larger limits are clamped to this (and the effective limit is echoed), not refused. */
export const SEARCH_MAX_LIMIT = 50
export const QUICK_DEFAULT_LIMIT = 8
export const QUICK_MAX_LIMIT = 20
export const SEARCH_MAX_QUERY_LENGTH = 500

const zQ = z
  .string({ error: 'q is required: the words to search for' })
  .trim()
  .min(1, 'q is required: the words to search for')
  .max(SEARCH_MAX_QUERY_LENGTH, `q may be at most ${SEARCH_MAX_QUERY_LENGTH} characters`)

const zLimit = (def: number, max: number) =>
  z.coerce.number({ error: 'limit must be a whole number' }).int('limit must be a whole number')
    .min(1, 'limit must be at least 1').default(def).transform((n) => Math.min(n, max))

export const zSearchQuery = z.object({ q: zQ, limit: zLimit(SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT) })
export type SearchQuery = z.infer<typeof zSearchQuery>

export const zQuickSearchQuery = z.object({ q: zQ, limit: zLimit(QUICK_DEFAULT_LIMIT, QUICK_MAX_LIMIT) })
export type QuickSearchQuery = z.infer<typeof zQuickSearchQuery>

export const SEARCH_MEDIA = ['image', 'video', 'link'] as const
export const zSearchMedia = z.enum(SEARCH_MEDIA)
export type SearchMedia = z.infer<typeof zSearchMedia>

/** One thing the query asked for, shown as a removable chip. */
export const zSearchChip = z.object({
  kind: z.enum(['author', 'category', 'media', 'date', 'phrase', 'exclude', 'correction', 'language']),
  /** Plain words for the chip, e.g. "by @simonw", "March 2024", "not 'crypto'". */
  label: z.string(),
  /** The query with this part taken out: what to search when the chip is removed. */
  queryWithout: z.string(),
})
export type SearchChip = z.infer<typeof zSearchChip>

/** What the server understood from `q`, echoed so the UI can show and remove each part. */
export const zSearchUnderstood = z.object({
  /** The free text left after the filters were taken out (what lexical and semantic search used). */
  text: z.string(),
  /** Words searched for (stop words and filler such as "post about" dropped). */
  terms: z.array(z.string()),
  /** Quoted phrases; each must occur. */
  phrases: z.array(z.string()),
  /** Words or phrases after a minus; posts containing them are left out. */
  excluded: z.array(z.string()),
  /** Author handle without the @. */
  author: z.string().nullable(),
  /** The category asked for with in:, when it exists. */
  category: z.object({ slug: z.string(), name: z.string() }).nullable(),
  /** ISO 639-1 code of the language asked for (`lang:de`, "posts in German", "auf Deutsch"), or null. */
  lang: z.string().nullable(),
  /** Media the posts must have (has:image, has:video, has:link). */
  has: z.array(zSearchMedia),
  /** Media words ("screenshot", "video") that favour posts with such media without requiring it. */
  mediaHints: z.array(zSearchMedia),
  /** Inclusive lower bound of postCreatedAt, ISO 8601 UTC. */
  after: z.string().nullable(),
  /** Exclusive upper bound of postCreatedAt, ISO 8601 UTC. */
  before: z.string().nullable(),
  /** Misspelt words and what was searched instead. */
  corrections: z.array(z.object({ from: z.string(), to: z.string() })),
  /** Parts of the query that could not be applied (e.g. an unknown category), in plain words. */
  notes: z.array(z.string()),
  chips: z.array(zSearchChip),
})
export type SearchUnderstood = z.infer<typeof zSearchUnderstood>

export const zSearchResult = z.object({
  bookmark: zBookmark,
  /** 0-1, comparable across queries: ~0.9+ a strong exact match, < 0.3 a weak one. */
  relevance: z.number().min(0).max(1),
  /** Why it matched, in plain words; never empty. */
  reason: z.string().min(1),
})
export type SearchResult = z.infer<typeof zSearchResult>

export const RERANK_STATES = ['off', 'applied', 'failed'] as const

export const zSearchResponse = z.object({
  results: z.array(zSearchResult),
  query: z.string(),
  /** The effective limit (requests above SEARCH_MAX_LIMIT are clamped). */
  limit: z.number().int(),
  understood: zSearchUnderstood,
  /** off: no model configured; applied: the model reordered and explained; failed: fused order kept. */
  rerank: z.enum(RERANK_STATES),
  /** The embedding model the semantic half used. */
  semanticModel: z.string(),
})
export type SearchResponse = z.infer<typeof zSearchResponse>

export const zQuickResult = z.object({
  id: z.number().int(),
  /** One line: the post's first line, links removed, cut at ~90 characters. */
  title: z.string(),
  authorHandle: z.string(),
  authorName: z.string(),
})
export type QuickResult = z.infer<typeof zQuickResult>

export const zQuickSearchResponse = z.object({ results: z.array(zQuickResult), query: z.string() })
export type QuickSearchResponse = z.infer<typeof zQuickSearchResponse>
