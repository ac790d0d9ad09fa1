import type { MiddlewareHandler } from 'hono'
import { AppError } from '../../../src-shared/errors.ts'
import type { AppEnv } from '../app-env.ts'

/** The header the UI sends on every API request; documented in docs/api.md. */
export const CSRF_HEADER = 'X-Sheaf-Request'
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Besides SameSite=Strict: a state-changing request that a browser marks as cross-site is refused,
 * and one made by a browser (it sends Origin or Sec-Fetch-*) must carry CSRF_HEADER, which a page on
 * another origin cannot add without a CORS preflight we never grant. Scripts sending neither pass.
 */
export const csrfGuard = (): MiddlewareHandler<AppEnv> =>
  async function csrfGuard(c, next) {
    if (SAFE.has(c.req.method)) return next()
    const site = c.req.header('sec-fetch-site')
    const origin = c.req.header('origin')
    if (site && site !== 'same-origin' && site !== 'none') {
      throw new AppError('FORBIDDEN', 'Cross-site requests are refused.')
    }
    if (origin !== undefined) {
      let sameHost: boolean
      try {
        sameHost = new URL(origin).host === c.req.header('host')
      } catch {
        sameHost = false
      }
      if (!sameHost) throw new AppError('FORBIDDEN', `Requests from ${origin} are refused.`)
    }
    const fromBrowser = site !== undefined || origin !== undefined
    if (fromBrowser && !c.req.header(CSRF_HEADER)) {
      throw new AppError('FORBIDDEN', `Browser requests that change data must send the ${CSRF_HEADER} header.`)
    }
    await next()
  }
