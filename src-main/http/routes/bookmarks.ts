import { Hono } from 'hono'
import { AppError } from '../../../src-shared/errors.ts'
import { zBookmarkListQuery, zBulkBody, zCategorySlugBody, zMergeBody, zNoteBody, zSetCategoriesBody } from '../../../src-shared/schemas/library.ts'
import { can, forbiddenMessage } from '../../../src-shared/roles.ts'
import type { Library } from '../../library/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { idParam, jsonBody, queryOf } from '../validate.ts'

export const bookmarkRoutes = ({ library }: { library: Library }) =>
  new Hono<AppEnv>()
    .get('/', allow('bookmarks:read'), (c) => c.json(library.bookmarks.list(queryOf(c, zBookmarkListQuery), c.get('user').id)))
    .get('/languages', allow('bookmarks:read'), (c) => c.json(library.bookmarks.languages()))
    .post('/bulk', allow('bookmarks:edit'), async (c) => {
      const body = await jsonBody(c, zBulkBody)
      const role = c.get('user').role
      if (body.action === 'delete' && !can(role, 'bookmarks:delete')) throw new AppError('FORBIDDEN', forbiddenMessage(role, 'bookmarks:delete'))
      return c.json(library.bookmarks.bulk(body))
    })
    .get('/:id', allow('bookmarks:read'), (c) => c.json(library.bookmarks.detail(idParam(c), c.get('user').id)))
    .put('/:id/categories', allow('bookmarks:edit'), async (c) => {
      const id = idParam(c)
      const { slugs } = await jsonBody(c, zSetCategoriesBody)
      return c.json({ categories: library.bookmarks.setCategories(id, slugs) })
    })
    .post('/:id/categories', allow('bookmarks:edit'), async (c) => {
      const id = idParam(c)
      const { slug } = await jsonBody(c, zCategorySlugBody)
      return c.json({ categories: library.bookmarks.addCategory(id, slug) })
    })
    .delete('/:id/categories/:slug', allow('bookmarks:edit'), (c) =>
      c.json({ categories: library.bookmarks.removeCategory(idParam(c), c.req.param('slug')) }))
    .put('/:id/note', allow('notes:write'), async (c) => {
      const id = idParam(c)
      const { text } = await jsonBody(c, zNoteBody)
      return c.json({ note: library.bookmarks.setNote(id, c.get('user').id, text) })
    })
    .post('/:id/merge', allow('bookmarks:delete'), async (c) => {
      const id = idParam(c)
      const { otherId } = await jsonBody(c, zMergeBody)
      return c.json(library.bookmarks.merge(id, otherId, c.get('user').id))
    })
    .delete('/:id', allow('bookmarks:delete'), (c) => {
      library.bookmarks.remove(idParam(c))
      return c.body(null, 204)
    })
