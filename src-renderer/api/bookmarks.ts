import { z } from 'zod'
import { zBookmarkDetail, zBookmarkList, type Bookmark, type BookmarkDetail } from '../../src-shared/schemas/bookmarks.ts'
import { zBulkResult, zLanguageCounts } from '../../src-shared/schemas/library.ts'
import { del, get, post, put, type Query } from './client.ts'

export const PAGE_SIZE = 100

export const listBookmarks = (query: Query, signal?: AbortSignal) =>
  get('/api/bookmarks', { query: { limit: PAGE_SIZE, ...query }, schema: zBookmarkList, signal })
export const getBookmark = (id: number, signal?: AbortSignal) => get(`/api/bookmarks/${id}`, { schema: zBookmarkDetail, signal })
export const setBookmarkCategories = (id: number, slugs: string[]) =>
  put(`/api/bookmarks/${id}/categories`, { slugs }, { schema: z.object({ categories: z.array(z.object({ name: z.string(), slug: z.string(), color: z.string() })) }).partial() })
export const saveNote = (id: number, text: string) => put(`/api/bookmarks/${id}/note`, { text })
export const deleteBookmark = (id: number) => del(`/api/bookmarks/${id}`)
export const bulkAction = (ids: number[], action: 'delete' | 'addCategory' | 'removeCategory', slug?: string) =>
  post('/api/bookmarks/bulk', { ids, action, slug }, { schema: zBulkResult })

export type { Bookmark, BookmarkDetail }

/** The languages the library holds, most posts first (the filter bar offers only these). */
export const fetchLanguages = () => get('/api/bookmarks/languages', { schema: zLanguageCounts })

/** Folds post `otherId` into post `id`; returns the kept post. */
export const mergeBookmark = (id: number, otherId: number) => post(`/api/bookmarks/${id}/merge`, { otherId }, { schema: zBookmarkDetail })
