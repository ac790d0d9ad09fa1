import { Hono } from 'hono'
import { zCreateInviteBody, zUpdateUserBody } from '../../../src-shared/schemas/users.ts'
import type { Auth } from '../../auth/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { idParam, jsonBody } from '../validate.ts'

export const userRoutes = ({ auth }: { auth: Auth }) =>
  new Hono<AppEnv>()
    .use(allow('users:manage'))
    .post('/invite', async (c) => {
      const body = await jsonBody(c, zCreateInviteBody)
      return c.json(auth.invites.create({ ...body, createdBy: c.get('user').id }), 201)
    })
    .get('/invites', (c) => c.json({ invites: auth.invites.list() }))
    .delete('/invites/:code', (c) => c.json({ invite: auth.invites.revoke(c.req.param('code')) }))
    .get('/', (c) => c.json({ users: auth.users.list() }))
    .get('/:id', (c) => c.json({ user: auth.users.get(idParam(c)) }))
    .patch('/:id', async (c) => {
      const id = idParam(c)
      const { role } = await jsonBody(c, zUpdateUserBody)
      return c.json({ user: auth.users.setRole(id, role) })
    })
    .delete('/:id', (c) => {
      auth.users.remove(idParam(c))
      return c.body(null, 204)
    })
