import { zMindmap } from '../../src-shared/schemas/mindmap.ts'
import { get } from './client.ts'

export const fetchMindmap = (query: { category?: string; perCategory?: number; page?: number; tags?: boolean } = {}) =>
  get('/api/mindmap', { query: { ...query, tags: query.tags === undefined ? undefined : String(query.tags) }, schema: zMindmap })
