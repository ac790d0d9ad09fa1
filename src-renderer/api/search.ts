import { zQuickSearchResponse, zSearchResponse, type SearchResponse, type SearchResult } from '../../src-shared/schemas/search.ts'
import { get } from './client.ts'

export const aiSearch = (q: string, signal?: AbortSignal) =>
  get('/api/search/ai', { query: { q, limit: 30 }, schema: zSearchResponse, signal })

export const quickSearch = (q: string, signal?: AbortSignal) =>
  get('/api/search/quick', { query: { q, limit: 8 }, schema: zQuickSearchResponse, signal })

export type { SearchResponse, SearchResult }
