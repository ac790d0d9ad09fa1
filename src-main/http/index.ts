import { Hono, type MiddlewareHandler } from 'hono'
import type { Auth } from '../auth/index.ts'
import type { McpHandler } from '../mcp/index.ts'
import type { AppEnv } from './app-env.ts'
import { notFound, toErrorResponse, type ErrorLogger } from './errors.ts'
import { bodyLimit } from './middleware/body-limit.ts'
import { clientInfo } from './middleware/client-info.ts'
import { csrfGuard } from './middleware/csrf-guard.ts'
import { hostCheck } from './middleware/host-check.ts'
import { rateLimit } from './middleware/rate-limit.ts'
import { securityHeaders } from './middleware/security-headers.ts'
import { identify, readOnlyGate, requireSession } from './middleware/session.ts'
import { PUBLIC_AUTH_ROUTES, authRoutes } from './routes/auth.ts'
import { mountMcp } from './routes/mcp.ts'
import { tokenRoutes } from './routes/tokens.ts'
import { userRoutes } from './routes/users.ts'
import { mountStaticUi } from './static-ui.ts'

export type { AppEnv } from './app-env.ts'
export { CSRF_HEADER } from './middleware/csrf-guard.ts'
export { isLoopbackAddress } from './middleware/client-info.ts'
export { lanRoutes } from './routes/lan.ts'
export { desktopLoginRoutes } from './routes/desktop-login.ts'
export { bookmarkRoutes } from './routes/bookmarks.ts'
export { categoryRoutes } from './routes/categories.ts'
export { exportRoutes } from './routes/export.ts'
export { importRoutes } from './routes/import.ts'
export { mindmapRoutes } from './routes/mindmap.ts'
export { statsRoutes } from './routes/stats.ts'
export { searchRoutes } from './routes/search.ts'
export { categorizeRoutes } from './routes/categorize.ts'
export { settingsRoutes } from './routes/settings.ts'
export { mediaRoutes } from './routes/media.ts'
export { digestRoutes, reviewRoutes, stateRoutes } from './routes/member.ts'
export { serveGuarded, type ConnectionLimits } from './node-server.ts'
export { clearSpool } from './upload.ts'

interface RateLimitRule {
  limit: number
  windowMs: number
}

/** The part of the app's Config the HTTP layer reads (app/config.ts satisfies it). */
export interface HttpConfig {
  rateLimits: { login: RateLimitRule; register: RateLimitRule; api: RateLimitRule; token: RateLimitRule }
  bodyLimitBytes: number
  uiDir: string | null
}

export interface HttpDeps {
  config: HttpConfig
  auth: Auth
  clock: () => number
  logError: ErrorLogger
  /** Host names served besides loopback; changes when LAN sharing starts or stops. */
  allowedHosts: () => readonly string[]
  /** Called first on every request: what the store keeps in memory notices other processes' commits (store/remembered.ts). */
  requestBegins?: () => void
  /** Capability routes, mounted under /api/<path> (built in app/create-app.ts). */
  routes?: RouteModule[]
  /** Answers MCP over Streamable HTTP at /mcp, for a personal API token only (src-main/mcp). */
  mcp?: McpHandler
}

export interface RouteModule {
  /** Mount point under /api, e.g. "/bookmarks". */
  path: string
  routes: Hono<AppEnv>
}

const UPLOAD_PATHS = new Set(['/api/import'])
const OWN_LIMIT = new Set(['POST /api/auth/login', 'POST /api/auth/register', 'POST /api/auth/setup'])

export function createHttpApp(deps: HttpDeps): Hono<AppEnv> {
  const { config, auth, clock } = deps
  const app = new Hono<AppEnv>()
  app.onError(toErrorResponse(deps.logError))
  const begins = deps.requestBegins
  if (begins) app.use(async (_c, next) => { begins(); await next() })
  app.use(clientInfo(), hostCheck({ allowedHosts: deps.allowedHosts }), securityHeaders())

  const byAddress = (c: { get(k: 'clientIp'): string }) => `ip:${c.get('clientIp')}`
  const limits = config.rateLimits
  const apiLimit = rateLimit({
    rule: () => limits.api,
    key: (c) => (c.get('user') ? `user:${c.get('user').id}` : byAddress(c)),
    clock,
    what: 'requests',
  })
  const tokenLimit = rateLimit({ rule: () => limits.token, key: (c) => `token:${c.get('apiToken').id}`, clock, what: 'requests with this API token' })
  const limitPerCaller: MiddlewareHandler<AppEnv> = (c, next) => (c.get('apiToken') ? tokenLimit(c, next) : apiLimit(c, next))
  const loginLimit = rateLimit({ rule: () => limits.login, key: byAddress, clock, what: 'sign-in attempts' })
  const registerLimit = rateLimit({ rule: () => limits.register, key: byAddress, clock, what: 'sign-up attempts' })

  const api = new Hono<AppEnv>()
  api.use(csrfGuard())
  api.use(async (c, next) =>
    UPLOAD_PATHS.has(c.req.path) ? next() : bodyLimit(() => config.bodyLimitBytes)(c, next))
  api.use(identify({ sessions: auth.sessions, tokens: auth.tokens }))
  // A tool call through /mcp was counted there once; the API calls it makes in-process are not counted again.
  api.use(async (c, next) => (OWN_LIMIT.has(`${c.req.method} ${c.req.path}`) || c.env?.via === 'mcp' ? next() : limitPerCaller(c, next)))
  api.use(requireSession({ isPublic: (m, p) => PUBLIC_AUTH_ROUTES.has(`${m} ${p}`) }))
  api.use(readOnlyGate())

  api.get('/health', (c) => c.json({ ok: true }))
  api.route('/auth', authRoutes({ auth, loginLimit, registerLimit }))
  api.route('/users', userRoutes({ auth }))
  api.route('/tokens', tokenRoutes({ tokens: auth.tokens }))
  for (const r of deps.routes ?? []) api.route(r.path, r.routes)
  api.all('*', notFound)

  app.route('/api', api)
  if (deps.mcp) mountMcp(app, deps.mcp, { auth, tokenLimit, bodyLimitBytes: () => config.bodyLimitBytes })
  mountStaticUi(app, config.uiDir)
  return app
}
