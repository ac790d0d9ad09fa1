import type { MiddlewareHandler } from 'hono'
import { getCookie } from 'hono/cookie'
import { AppError } from '../../../src-shared/errors.ts'
import { looksLikeApiToken, type ApiTokens, type Sessions } from '../../auth/index.ts'
import type { AppEnv } from '../app-env.ts'

export const TOKEN_COOKIE = 'token'

export interface IdentifyOptions {
  sessions: Sessions
  tokens: ApiTokens
}

export const bearerOf = (authorization: string | undefined): string | undefined =>
  /^Bearer (.+)$/i.exec(authorization ?? '')?.[1]?.trim()

/**
 * Reads the credential and sets `user` when it is valid; never refuses. A personal API token counts
 * only in the Authorization header: in the cookie it is not a session and is refused like any bad one.
 * Split from the gate so the rate limit, which runs in between, can count per token or user when
 * signed in and per address otherwise, refused requests included.
 */
export const identify = ({ sessions, tokens }: IdentifyOptions): MiddlewareHandler<AppEnv> =>
  async function identify(c, next) {
    const bearer = bearerOf(c.req.header('authorization'))
    try {
      if (bearer && looksLikeApiToken(bearer)) {
        const { user, token } = tokens.authenticate(bearer)
        c.set('user', user)
        c.set('apiToken', token)
      } else {
        const token = getCookie(c, TOKEN_COOKIE) ?? bearer
        if (token) {
          const { user, claims } = await sessions.authenticate(token)
          c.set('user', user)
          c.set('sessionExp', claims.exp)
        }
      }
    } catch (e) {
      if (!(e instanceof AppError)) throw e
      c.set('sessionError', e)
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

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/** A read-only API token may read and search, never change anything. */
export const readOnlyGate = (): MiddlewareHandler<AppEnv> =>
  async function readOnlyGate(c, next) {
    if (c.get('apiToken')?.readOnly && !SAFE.has(c.req.method)) {
      throw new AppError('FORBIDDEN', 'This API token is read-only: it can read and search the library but not change it. Create a token without --read-only for that.')
    }
    await next()
  }

/** For routes a personal API token must not reach (managing tokens, turning one into a browser session). */
export const browserSessionOnly = (what: string): MiddlewareHandler<AppEnv> =>
  async function browserSessionOnly(c, next) {
    if (c.get('apiToken')) throw new AppError('FORBIDDEN', `An API token cannot ${what}; sign in to Sheaf for that.`)
    await next()
  }
