import type { Context } from 'hono'
import type { z } from 'zod'
import { AppError } from '../../src-shared/errors.ts'

function fail(error: z.ZodError): never {
  const issue = error.issues[0]
  const field = issue.path.join('.') || 'body'
  throw new AppError('VALIDATION_ERROR', `${field}: ${issue.message}`, {
    field,
    issues: error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
  })
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value)
  if (!result.success) fail(result.error)
  return result.data
}

/** Reads and validates a JSON body; malformed JSON and wrong types are 400 VALIDATION_ERROR naming the field. */
export async function jsonBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  const text = await c.req.text()
  let value: unknown = {}
  if (text.trim() !== '') {
    try {
      value = JSON.parse(text)
    } catch (e) {
      throw new AppError('VALIDATION_ERROR', `The request body is not valid JSON (${(e as Error).message}).`, { field: 'body' })
    }
  }
  return parseWith(schema, value)
}

export const queryOf = <S extends z.ZodType>(c: Context, schema: S): z.infer<S> => parseWith(schema, c.req.query())

/** A numeric path id, or 400 naming the parameter. */
export function idParam(c: Context, name = 'id'): number {
  const raw = c.req.param(name) ?? ''
  if (!/^\d{1,15}$/.test(raw)) throw new AppError('VALIDATION_ERROR', `${name} must be a positive integer.`, { field: name })
  return Number(raw)
}
