import type { MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { AppError } from '../../../src-shared/errors.ts'
import type { Sessions } from '../../auth/index.ts'
import type { AppEnv } from '../app-env.ts'

export const TOKEN_COOKIE = 'token'

export interface IdentifyOptions {
  sessions: Sessions
}

/**
 * Reads the token (cookie, or Bearer for scripts) and sets `user` when it is valid; never refuses.
 * Split from the gate so the API rate limit, which runs in between, can count per user when signed
 * in and per address otherwise, refused requests included.
 */
export const identify = ({ sessions }: IdentifyOptions): MiddlewareHandler<AppEnv> =>
  async function identify(c, next) {
    const bearer = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    const token = getCookie(c, TOKEN_COOKIE) ?? bearer
    if (token) {
      try {
        const { user, claims } = await sessions.authenticate(token)
        c.set('user', user)
        c.set('sessionExp', claims.exp)
      } catch (e) {
        if (!(e instanceof AppError)) throw e
        c.set('sessionError', e)
      }
    }
    await next()
  }

export interface RequireSessionOptions {
  /** Requests that need no session (method + path), e.g. login and register. */
  isPublic: (method: string, path: string) => boolean
}

/** The gate: every non-public request needs a valid, unexpired token. */
export const requireSession = ({ isPublic }: RequireSessionOptions): MiddlewareHandler<AppEnv> =>
  async function requireSession(c, next) {
    if (!isPublic(c.req.method, c.req.path) && !c.get('user')) {
      throw c.get('sessionError') ?? new AppError('UNAUTHORIZED', 'Please sign in first.')
    }
    await next()
  }
