import { Hono } from 'hono'
import { zBulkStateBody, zDigestQuery, zReviewAnswer, zReviewQuery, zStateBody } from '../../../src-shared/schemas/member.ts'
import { digestMarkdown, type Member } from '../../member/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { idParam, jsonBody, queryOf } from '../validate.ts'

/** PUT /api/bookmarks/:id/state and POST /api/bookmarks/state: the caller's own flags, any role. */
export const stateRoutes = ({ member }: { member: Member }) =>
  new Hono<AppEnv>()
    .post('/state', allow('state:write'), async (c) => c.json(member.state.bulk(c.get('user').id, await jsonBody(c, zBulkStateBody))))
    .put('/:id/state', allow('state:write'), async (c) => {
      const id = idParam(c)
      return c.json(member.state.put(c.get('user').id, id, await jsonBody(c, zStateBody)))
    })

/** GET /api/review and POST /api/review/:id: the caller's daily review. */
export const reviewRoutes = ({ member }: { member: Member }) =>
  new Hono<AppEnv>()
    .get('/', allow('review:use'), (c) => c.json(member.review.today(c.get('user').id, queryOf(c, zReviewQuery).n)))
    .post('/:id', allow('review:use'), async (c) => {
      const id = idParam(c)
      const { outcome } = await jsonBody(c, zReviewAnswer)
      return c.json(member.review.answer(c.get('user').id, id, outcome))
    })

/** GET /api/digest?days=7[&format=markdown] */
export const digestRoutes = ({ member }: { member: Member }) =>
  new Hono<AppEnv>().get('/', allow('digest:read'), (c) => {
    const { days, format } = queryOf(c, zDigestQuery)
    const digest = member.digest.get(c.get('user').id, days)
    if (format === 'json') return c.json(digest)
    return c.body(digestMarkdown(digest), 200, { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'no-store' })
  })
