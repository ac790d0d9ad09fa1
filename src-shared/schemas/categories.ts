import { z } from 'zod'
import { zBookmark, zCategorySummary } from './bookmarks.ts'

export const COLOR_RE = /^#[0-9a-fA-F]{6}$/
export const zColor = z.string({ error: 'color must be a string' }).regex(COLOR_RE, 'color must be a hex colour of the form #rrggbb')
  .transform((s) => s.toLowerCase())
export const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
export const zCategorySlug = z.string({ error: 'slug must be a string' }).trim().toLowerCase()
  .max(60, 'slug is at most 60 characters')
  .regex(SLUG_RE, 'slug may hold lower-case letters, digits and single dashes (e.g. "machine-learning")')

export const zCategory = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  color: z.string(),
  description: z.string(),
  bookmarkCount: z.number().int(),
})
export type Category = z.infer<typeof zCategory>
export const zCategoryList = z.object({ categories: z.array(zCategory) })

const zCategoryName = z.string({ error: 'name must be a string' }).trim().min(1, 'name is required').max(60, 'name is at most 60 characters')
const zDescription = z.string({ error: 'description must be a string' }).trim().max(500, 'description is at most 500 characters')

export const zCreateCategoryBody = z.object({
  name: zCategoryName,
  /** Derived from the name when absent. */
  slug: zCategorySlug.optional(),
  /** Picked from the palette when absent. */
  color: zColor.optional(),
  description: zDescription.optional(),
})
export type CreateCategoryBody = z.infer<typeof zCreateCategoryBody>

/** Renaming keeps the slug unless a new slug is given. */
export const zUpdateCategoryBody = z.object({
  name: zCategoryName.optional(),
  slug: zCategorySlug.optional(),
  color: zColor.optional(),
  description: zDescription.optional(),
  position: z.number().int().min(0).max(10_000).optional(),
})
export type UpdateCategoryBody = z.infer<typeof zUpdateCategoryBody>

export const zMergeCategoryBody = z.object({ into: z.number({ error: 'into must be a category id' }).int().positive() })

/** Assignments the analysis was least sure of, for a person to confirm or remove. */
export const LOW_CONFIDENCE = 0.4
export const zCategoryReviewQuery = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(100).default(20),
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1).default(1),
})
export type CategoryReviewQuery = z.infer<typeof zCategoryReviewQuery>
export const zCategoryReview = z.object({
  items: z.array(z.object({ bookmark: zBookmark, category: zCategorySummary })),
  /** Assignments below `threshold`, all pages. */
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  threshold: z.number(),
  /** Categories being placed again after a person's correction (done of total posts). */
  rescoring: z.object({ running: z.boolean(), done: z.number().int(), total: z.number().int() }),
})
export type CategoryReview = z.infer<typeof zCategoryReview>
