import type { MiddlewareHandler } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
import { AppError } from '../../../src-shared/errors.ts'

/** Methods whose Request has no body (fetch drops one), so nothing of the app can read one. */
const NO_BODY = new Set(['GET', 'HEAD'])

/**
 * Refuses bodies over `maxBytes` as soon as the declared or streamed size passes it. A GET or HEAD
 * passes at once: Hono's check would ask for the body, which builds the whole WHATWG Request from
 * Node's message (~0.05 ms of the HTTP thread a search) only to find none.
 */
export const bodyLimit = (maxBytes: () => number): MiddlewareHandler =>
  async function bodyLimit(c, next) {
    if (NO_BODY.has(c.req.method)) return next()
    const max = maxBytes()
    return honoBodyLimit({
      maxSize: max,
      onError: () => {
        throw new AppError('VALIDATION_ERROR', `The request body is larger than the ${Math.round(max / 1024)} KB limit.`, { field: 'body' })
      },
    })(c, next)
  }
