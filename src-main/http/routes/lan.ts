import { Hono } from 'hono'
import { CA_CERT_CONTENT_TYPE, zJoinLinkBody, zLanUpdate } from '../../../src-shared/schemas/lan.ts'
import type { Lan } from '../../lan/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { jsonBody } from '../validate.ts'

/**
 * /api/lan: sharing on the home network. Everything is admin only except the CA certificate, which is
 * public: a household member needs it before they have an account, and it holds no secret.
 */
export const lanRoutes = ({ lan }: { lan: Lan }) =>
  new Hono<AppEnv>()
    .get('/ca.crt', async (c) => {
      c.header('Content-Type', CA_CERT_CONTENT_TYPE)
      c.header('Content-Disposition', 'attachment; filename="sheaf-household-ca.crt"')
      return c.body(await lan.caCertificate())
    })
    .use(allow('settings:manage'))
    .get('/', (c) => c.json(lan.status()))
    .put('/', async (c) => {
      const { enabled, port } = await jsonBody(c, zLanUpdate)
      return c.json(await lan.setEnabled(enabled, { port }))
    })
    .post('/join-link', async (c) => {
      const body = await jsonBody(c, zJoinLinkBody)
      return c.json(await lan.joinLink(body, c.get('user').id), 201)
    })


