import type { MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { AppError } from '../../../src-shared/errors.ts'
import type { Sessions } from '../../auth/index.ts'
import type { AppEnv } from '../app-env.ts'

export const TOKEN_COOKIE = 'token'

export interface SessionOptions {
  sessions: Sessions
  /** Requests that need no session (method + path), e.g. login and register. */
  isPublic: (method: string, path: string) => boolean
}

/** The gate: every non-public request needs a valid, unexpired token (cookie, or Bearer for scripts). */
export const session = ({ sessions, isPublic }: SessionOptions): MiddlewareHandler<AppEnv> =>
  async function session(c, next) {
    const bearer = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    const token = getCookie(c, TOKEN_COOKIE) ?? bearer
    if (isPublic(c.req.method, c.req.path)) {
      if (token) await sessions.authenticate(token).then(({ user, claims }) => {
        c.set('user', user)
        c.set('sessionExp', claims.exp)
      }, () => undefined)
      return next()
    }
    if (!token) throw new AppError('UNAUTHORIZED', 'Please sign in first.')
    const { user, claims } = await sessions.authenticate(token)
    c.set('user', user)
    c.set('sessionExp', claims.exp)
    await next()
  }
