import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { AppError, isAppError } from '../../src-shared/errors.ts'

export type ErrorLogger = (msg: string, err: unknown) => void

/** The single translation point from thrown errors to `{error, code}` responses. */
export const toErrorResponse = (log: ErrorLogger) => (err: Error, c: Context) => {
  if (isAppError(err)) {
    // A body that stopped arriving is not read any further: end the connection with the answer.
    if (err.status === 408) c.header('Connection', 'close')
    return c.json(err.toJSON(), err.status as ContentfulStatusCode)
  }
  if (err instanceof HTTPException && err.status < 500) {
    const e = new AppError('VALIDATION_ERROR', err.message || 'The request is not valid.')
    return c.json(e.toJSON(), err.status)
  }
  log(`${c.req.method} ${c.req.path} failed`, err)
  return c.json({ error: 'Something went wrong on the server; it has been logged.', code: 'INTERNAL_ERROR' }, 500)
}

export const notFound = (c: Context) => {
  const e = new AppError('NOT_FOUND', `No API endpoint ${c.req.method} ${c.req.path}.`)
  return c.json(e.toJSON(), 404)
}
