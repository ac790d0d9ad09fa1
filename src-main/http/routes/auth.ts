import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { AppError } from '../../../src-shared/errors.ts'
import { zLoginBody, zRegisterBody, zSetupBody } from '../../../src-shared/schemas/users.ts'
import type { Auth } from '../../auth/index.ts'
import type { AppEnv } from '../app-env.ts'
import { clearSessionCookie, setSessionCookie } from '../cookies.ts'
import { browserSessionOnly } from '../middleware/session.ts'
import { jsonBody } from '../validate.ts'

export interface AuthRouteDeps {
  auth: Auth
  loginLimit: MiddlewareHandler<AppEnv>
  registerLimit: MiddlewareHandler<AppEnv>
}

const expiresAt = (exp: number) => new Date(exp * 1000).toISOString()

/** The signed-in user and when their session ends; an API token does not expire and says which token it is. */
const whoAmI = (c: Context<AppEnv>) => {
  const token = c.get('apiToken')
  return token ? { user: c.get('user'), expiresAt: null, token } : { user: c.get('user'), expiresAt: expiresAt(c.get('sessionExp')) }
}

export const authRoutes = ({ auth, loginLimit, registerLimit }: AuthRouteDeps) =>
  new Hono<AppEnv>()
    .post('/login', loginLimit, async (c) => {
      const { email, password } = await jsonBody(c, zLoginBody)
      const s = await auth.sessions.login(email, password)
      setSessionCookie(c, s.token)
      return c.json({ user: s.user })
    })
    .post('/register', registerLimit, async (c) => {
      const body = await jsonBody(c, zRegisterBody)
      const s = await auth.sessions.register(body)
      setSessionCookie(c, s.token)
      return c.json({ user: s.user }, 201)
    })
    .post('/logout', (c) => {
      clearSessionCookie(c)
      return c.json({ ok: true })
    })
    .get('/me', (c) => c.json(whoAmI(c)))
    // Public: the UI asks at start whether it is signed in, and "no" is an answer, not a refusal.
    .get('/session', (c) => c.json(c.get('user') ? whoAmI(c) : { user: null, expiresAt: null }))
    .post('/refresh', browserSessionOnly('start a browser session'), async (c) => {
      const s = await auth.sessions.issue(c.get('user'))
      setSessionCookie(c, s.token)
      return c.json({ user: s.user, expiresAt: expiresAt(s.claims.exp) })
    })
    .get('/setup', (c) => c.json({ needsSetup: auth.sessions.needsSetup(), local: c.get('isLoopback') }))
    .post('/setup', registerLimit, async (c) => {
      if (!c.get('isLoopback')) {
        throw new AppError('FORBIDDEN', 'The first admin can only be created on the machine running Sheaf.')
      }
      if (!auth.sessions.needsSetup()) throw new AppError('FORBIDDEN', 'Sheaf is already set up; sign in instead.')
      const s = await auth.sessions.setup(await jsonBody(c, zSetupBody))
      setSessionCookie(c, s.token)
      return c.json({ user: s.user }, 201)
    })

/** Routes reachable without a session. */
export const PUBLIC_AUTH_ROUTES = new Set([
  'POST /api/auth/login',
  'POST /api/auth/register',
  'POST /api/auth/logout',
  'GET /api/auth/setup',
  'GET /api/auth/session',
  'POST /api/auth/setup',
  'GET /api/health',
  'POST /api/auth/desktop', // the one-time desktop token is the credential (routes/desktop-login.ts)
  'GET /api/auth/desktop',
  'GET /api/lan/ca.crt', // the household CA certificate is public (routes/lan.ts)
])
