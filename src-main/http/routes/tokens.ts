import { Hono } from 'hono'
import { zCreateTokenBody } from '../../../src-shared/schemas/tokens.ts'
import type { ApiTokens } from '../../auth/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { browserSessionOnly } from '../middleware/session.ts'
import { idParam, jsonBody } from '../validate.ts'

/** A person's own API tokens (docs/api/tokens.md); managed from a signed-in session, never with a token. */
export const tokenRoutes = ({ tokens }: { tokens: ApiTokens }) =>
  new Hono<AppEnv>()
    .use(allow('tokens:manage'), browserSessionOnly('manage API tokens'))
    .get('/', (c) => c.json({ tokens: tokens.list(c.get('user').id) }))
    .post('/', async (c) => c.json(tokens.create(c.get('user'), await jsonBody(c, zCreateTokenBody)), 201))
    .delete('/:id', (c) => c.json({ token: tokens.revoke(idParam(c), c.get('user').id) }))
