import { z } from 'zod'
import { zCategory, zCategoryList, zCategoryReview, type Category, type CategoryReview } from '../../src-shared/schemas/categories.ts'
import { del, get, patch, post } from './client.ts'

export interface CategoryInput {
  name?: string
  color?: string
  description?: string
}

export const listCategories = () => get('/api/categories', { schema: zCategoryList })
const one = z.union([z.object({ category: zCategory }), zCategory])
const unwrap = (r: unknown): Category => ((r as { category?: Category }).category ?? r) as Category
export const createCategory = (body: CategoryInput & { name: string }) => post('/api/categories', body, { schema: one }).then(unwrap)
export const updateCategory = (id: number, body: CategoryInput) => patch(`/api/categories/${id}`, body, { schema: one }).then(unwrap)
export const mergeCategory = (id: number, into: number) => post(`/api/categories/${id}/merge`, { into })
export const deleteCategory = (id: number) => del(`/api/categories/${id}`)
export const reviewCategories = (limit = 20) => get(`/api/categories/review?limit=${limit}`, { schema: zCategoryReview })
export const confirmCategory = (bookmarkId: number, slug: string) => post(`/api/bookmarks/${bookmarkId}/categories`, { slug })
export const removeCategory = (bookmarkId: number, slug: string) => del(`/api/bookmarks/${bookmarkId}/categories/${encodeURIComponent(slug)}`)
export type { Category, CategoryReview }
