import type { z } from 'zod'

/** The CSRF header the server requires on every browser request that changes data (docs/api). */
export const CSRF_HEADER = 'X-Sheaf-Request'

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details?: unknown
  readonly retryAfter: number | null
  constructor(status: number, code: string, message: string, details?: unknown, retryAfter: number | null = null) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.details = details
    this.retryAfter = retryAfter
  }
}

type Listener = (e: ApiError, path: string) => void
const listeners = new Set<Listener>()
/** The session store listens for 401 and the toast store for 429; the client itself stays free of UI. */
export const onApiError = (fn: Listener): (() => void) => {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

export type Query = Record<string, string | number | boolean | null | undefined>

export function withQuery(path: string, query?: Query): string {
  if (!query) return path
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v))
  const s = qs.toString()
  return s ? `${path}?${s}` : path
}

export async function toApiError(res: Response): Promise<ApiError> {
  let body: { error?: string; code?: string; details?: unknown }
  try {
    body = await res.json()
  } catch {
    body = {}
  }
  const retry = Number(res.headers.get('Retry-After'))
  const fallback = res.status === 404 ? 'Not found.' : res.status >= 500 ? 'The server had a problem; try again.' : `Request failed (${res.status}).`
  return new ApiError(res.status, body.code ?? `HTTP_${res.status}`, body.error ?? fallback, body.details, Number.isFinite(retry) && retry > 0 ? retry : null)
}

export function emitApiError(e: ApiError, path: string): void {
  for (const l of listeners) l(e, path)
}

export interface RequestOptions<S extends z.ZodType | undefined> {
  query?: Query
  body?: unknown
  schema?: S
  signal?: AbortSignal
}

/** Every request: same-origin cookies, the CSRF header, JSON in and out, `{error, code}` turned into ApiError. */
export async function request<S extends z.ZodType | undefined = undefined>(
  method: string,
  path: string,
  opts: RequestOptions<S> = {},
): Promise<S extends z.ZodType ? z.infer<S> : unknown> {
  const url = withQuery(path, opts.query)
  let res: Response
  try {
    res = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: {
        [CSRF_HEADER]: '1',
        Accept: 'application/json',
        ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      signal: opts.signal,
    })
  } catch (e) {
    if ((e as Error).name === 'AbortError') throw e
    throw new ApiError(0, 'NETWORK', 'Sheaf is not reachable. Check that it is still running, then try again.')
  }
  if (!res.ok) {
    const err = await toApiError(res)
    emitApiError(err, path)
    throw err
  }
  if (res.status === 204) return undefined as never
  const data: unknown = await res.json()
  if (opts.schema) {
    const parsed = opts.schema.safeParse(data)
    // A contract drift should not blank the page: log it and carry on with what arrived.
    if (!parsed.success) console.warn(`Unexpected response from ${path}`, parsed.error.issues.slice(0, 3))
    return (parsed.success ? parsed.data : data) as never
  }
  return data as never
}

export const get = <S extends z.ZodType | undefined = undefined>(path: string, opts?: RequestOptions<S>) => request('GET', path, opts)
export const post = <S extends z.ZodType | undefined = undefined>(path: string, body?: unknown, opts?: RequestOptions<S>) =>
  request('POST', path, { ...opts, body: body ?? {} })
export const put = <S extends z.ZodType | undefined = undefined>(path: string, body: unknown, opts?: RequestOptions<S>) =>
  request('PUT', path, { ...opts, body })
export const patch = <S extends z.ZodType | undefined = undefined>(path: string, body: unknown, opts?: RequestOptions<S>) =>
  request('PATCH', path, { ...opts, body })
export const del = <S extends z.ZodType | undefined = undefined>(path: string, opts?: RequestOptions<S>) => request('DELETE', path, opts)
