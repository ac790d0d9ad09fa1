import { Hono, type MiddlewareHandler } from 'hono'
import { AppError } from '../../../src-shared/errors.ts'
import { looksLikeApiToken, type Auth } from '../../auth/index.ts'
import type { McpHandler } from '../../mcp/index.ts'
import type { AppEnv } from '../app-env.ts'
import { bodyLimit } from '../middleware/body-limit.ts'
import { csrfGuard } from '../middleware/csrf-guard.ts'
import { bearerOf } from '../middleware/session.ts'

export interface McpRouteDeps {
  auth: Auth
  tokenLimit: MiddlewareHandler<AppEnv>
  bodyLimitBytes: () => number
}

const NEEDS_TOKEN = 'The MCP endpoint needs a personal API token: send Authorization: Bearer sheaf_… (create one in Settings or with `sheaf token create`).'

/**
 * /mcp: MCP over Streamable HTTP for tools on the LAN. Only a personal API token in the Authorization
 * header opens it (never the browser's cookie), it is counted against the token's rate limit, and the
 * browser CSRF rules apply as on /api.
 */
export function mountMcp(app: Hono<AppEnv>, handle: McpHandler, { auth, tokenLimit, bodyLimitBytes }: McpRouteDeps): void {
  const mcp = new Hono<AppEnv>()
  mcp.use(csrfGuard(), bodyLimit(bodyLimitBytes))
  mcp.use(async (c, next) => {
    const bearer = bearerOf(c.req.header('authorization'))
    if (!bearer || !looksLikeApiToken(bearer)) {
      c.header('WWW-Authenticate', 'Bearer realm="sheaf"')
      throw new AppError('UNAUTHORIZED', NEEDS_TOKEN)
    }
    const { user, token } = auth.tokens.authenticate(bearer)
    c.set('user', user)
    c.set('apiToken', token)
    await next()
  }, tokenLimit)
  // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
  mcp.on(['GET', 'DELETE'], '/', (c) => {
    c.header('Allow', 'POST')
    throw new AppError('VALIDATION_ERROR', 'This MCP endpoint is stateless: send JSON-RPC messages with POST.', undefined, 405)
  })
  mcp.post('/', (c) => handle(c.req.raw, { secret: bearerOf(c.req.header('authorization'))!, user: c.get('user'), token: c.get('apiToken') }))
  app.route('/mcp', mcp)
}
