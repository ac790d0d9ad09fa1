import { Hono } from 'hono'
import { zQuickSearchQuery, zSearchQuery } from '../../../src-shared/schemas/search.ts'
import type { Search } from '../../search/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { queryOf } from '../validate.ts'

/** GET /api/search/ai (members and admins) and GET /api/search/quick (everyone who may read bookmarks). */
export const searchRoutes = ({ search }: { search: Search }) =>
  new Hono<AppEnv>()
    .get('/ai', allow('search:use'), async (c) => {
      const { q, limit } = queryOf(c, zSearchQuery)
      return c.json(await search.search(q, { limit }))
    })
    .get('/quick', allow('bookmarks:read'), (c) => {
      const { q, limit } = queryOf(c, zQuickSearchQuery)
      return c.json(search.quick(q, limit))
    })
