import { Hono } from 'hono'
import { zQuickSearchQuery, zSearchQuery } from '../../../src-shared/schemas/search.ts'
import type { Search } from '../../search/index.ts'
import type { Member } from '../../member/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { queryOf } from '../validate.ts'

/** GET /api/search/ai (members and admins; each result with the caller's own state) and GET /api/search/quick. */
export const searchRoutes = ({ search, member }: { search: Search; member?: Member }) =>
  new Hono<AppEnv>()
    .get('/ai', allow('search:use'), async (c) => {
      const { q, limit } = queryOf(c, zSearchQuery)
      const found = await search.search(q, { limit })
      if (!member) return c.json(found)
      const withState = member.state.attach(c.get('user').id, found.results.map((r) => r.bookmark))
      return c.json({ ...found, results: found.results.map((r, i) => ({ ...r, bookmark: withState[i] })) })
    })
    .get('/quick', allow('bookmarks:read'), (c) => {
      const { q, limit } = queryOf(c, zQuickSearchQuery)
      return c.json(search.quick(q, limit))
    })
