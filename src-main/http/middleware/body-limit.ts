import type { MiddlewareHandler } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
import { AppError } from '../../../src-shared/errors.ts'

/** Refuses bodies over `maxBytes` as soon as the declared or streamed size passes it. */
export const bodyLimit = (maxBytes: () => number): MiddlewareHandler =>
  async function bodyLimit(c, next) {
    const max = maxBytes()
    return honoBodyLimit({
      maxSize: max,
      onError: () => {
        throw new AppError('VALIDATION_ERROR', `The request body is larger than the ${Math.round(max / 1024)} KB limit.`, { field: 'body' })
      },
    })(c, next)
  }
