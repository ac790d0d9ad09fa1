import { Hono } from 'hono'
import { zCategoryReviewQuery, zCreateCategoryBody, zMergeCategoryBody, zUpdateCategoryBody } from '../../../src-shared/schemas/categories.ts'
import type { Library } from '../../library/index.ts'
import type { Pipeline } from '../../pipeline/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { idParam, jsonBody, queryOf } from '../validate.ts'

export const categoryRoutes = ({ library, pipeline }: { library: Library; pipeline: Pick<Pipeline, 'rescoreStatus'> }) =>
  new Hono<AppEnv>()
    .get('/', allow('categories:read'), (c) => c.json({ categories: library.categories.list() }))
    // Confirming or removing an assignment is an edit of the post (POST / DELETE /api/bookmarks/:id/categories).
    .get('/review', allow('bookmarks:edit'), (c) => {
      const { running, done, total } = pipeline.rescoreStatus()
      return c.json({ ...library.categories.review(queryOf(c, zCategoryReviewQuery), c.get('user').id), rescoring: { running, done, total } })
    })
    .get('/:id', allow('categories:read'), (c) => c.json({ category: library.categories.get(idParam(c)) }))
    .post('/', allow('categories:manage'), async (c) =>
      c.json({ category: library.categories.create(await jsonBody(c, zCreateCategoryBody)) }, 201))
    .patch('/:id', allow('categories:manage'), async (c) => {
      const id = idParam(c)
      return c.json({ category: library.categories.update(id, await jsonBody(c, zUpdateCategoryBody)) })
    })
    .post('/:id/merge', allow('categories:manage'), async (c) => {
      const id = idParam(c)
      const { into } = await jsonBody(c, zMergeCategoryBody)
      return c.json({ category: library.categories.merge(id, into) })
    })
    .delete('/:id', allow('categories:manage'), (c) => {
      library.categories.remove(idParam(c))
      return c.body(null, 204)
    })
