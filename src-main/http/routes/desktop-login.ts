import { Hono, type Context } from 'hono'
import { zDesktopLoginBody } from '../../../src-shared/schemas/desktop.ts'
import type { Sessions } from '../../auth/index.ts'
import type { LocalLogin } from '../../local-login/index.ts'
import type { AppEnv } from '../app-env.ts'
import { setSessionCookie } from '../cookies.ts'
import { jsonBody } from '../validate.ts'

export interface DesktopLoginDeps {
  localLogin: LocalLogin
  sessions: Pick<Sessions, 'issue'>
}

/**
 * POST /api/auth/desktop {token} and GET /api/auth/desktop?token= (the window's first load, which then
 * redirects to the UI). Both public in the session gate; the token is the credential.
 */
export const desktopLoginRoutes = ({ localLogin, sessions }: DesktopLoginDeps) => {
  const signIn = async (c: Context<AppEnv>, token: string) => {
    const owner = localLogin.redeem(token, { isLoopback: c.get('isLoopback') })
    if (!owner) return null
    const s = await sessions.issue(owner)
    setSessionCookie(c, s.token)
    return s.user
  }
  return new Hono<AppEnv>()
    .post('/', async (c) => {
      const { token } = await jsonBody(c, zDesktopLoginBody)
      const user = await signIn(c, token)
      return c.json({ user, needsSetup: user === null })
    })
    .get('/', async (c) => {
      // A refused or spent token still lands on the UI, which then offers the sign-in form.
      await signIn(c, c.req.query('token') ?? '').catch(() => null)
      c.header('Cache-Control', 'no-store')
      return c.redirect('/', 303)
    })
}
