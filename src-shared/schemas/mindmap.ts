import { z } from 'zod'

export const MINDMAP_DEFAULT_PER_CATEGORY = 20
export const MINDMAP_MAX_PER_CATEGORY = 200

export const zMindmapQuery = z.object({
  category: z.string().trim().min(1, 'category must not be empty').optional(),
  page: z.string().regex(/^\d{1,6}$/, 'page must be a whole number of at least 1').transform(Number)
    .pipe(z.number().int().min(1, 'page must be a whole number of at least 1')).default(1),
  perCategory: z.string().regex(/^\d{1,6}$/, `perCategory must be a whole number from 1 to ${MINDMAP_MAX_PER_CATEGORY}`).transform(Number)
    .pipe(z.number().int().min(1, `perCategory must be a whole number from 1 to ${MINDMAP_MAX_PER_CATEGORY}`))
    .default(MINDMAP_DEFAULT_PER_CATEGORY).transform((n) => Math.min(n, MINDMAP_MAX_PER_CATEGORY)),
  /** Tag and related edges among the shown posts (default true). */
  tags: z.enum(['true', 'false']).transform((v) => v === 'true').default(true),
})
export type MindmapQuery = z.infer<typeof zMindmapQuery>

export const zMindmapNode = z.object({
  /** "root", "category:<id>", "bookmark:<id>", "tag:<id>" or "uncategorized". */
  id: z.string(),
  type: z.enum(['root', 'category', 'bookmark', 'tag']),
  label: z.string(),
  count: z.number().int().optional(),
  color: z.string().optional(),
  bookmarkId: z.number().int().optional(),
  slug: z.string().optional(),
})
export type MindmapNode = z.infer<typeof zMindmapNode>

export const zMindmapEdge = z.object({
  source: z.string(),
  target: z.string(),
  type: z.enum(['contains', 'tagged', 'related']),
})
export type MindmapEdge = z.infer<typeof zMindmapEdge>

export const zMindmap = z.object({
  nodes: z.array(zMindmapNode),
  edges: z.array(zMindmapEdge),
  /** Present when one category is paged: which page, how many pages. */
  page: z.number().int().optional(),
  pages: z.number().int().optional(),
})
export type Mindmap = z.infer<typeof zMindmap>
