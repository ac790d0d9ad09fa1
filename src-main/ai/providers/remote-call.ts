import { AppError } from '../../../src-shared/errors.ts'

export interface RetryOptions {
  /** Attempts in all (first try included). */
  attempts?: number
  /** Per-attempt time limit. */
  timeoutMs?: number
  baseDelayMs?: number
  maxDelayMs?: number
  signal?: AbortSignal
  /** Injected for tests; resolves early when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

/** What an HTTP provider (Anthropic's, an OpenAI-compatible one) is built with besides its key. */
export interface RemoteProviderOptions {
  model?: string | null
  baseUrl?: string | null
  batchSize?: number
  concurrency?: number
  maxTokens?: number
  retry?: Omit<RetryOptions, 'signal'>
}

/** A failed remote call, with whether trying again could help. */
export class RemoteError extends Error {
  readonly status: number | null
  readonly retryable: boolean
  readonly retryAfterMs: number | null
  constructor(message: string, { status = null, retryable = false, retryAfterMs = null }: { status?: number | null; retryable?: boolean; retryAfterMs?: number | null } = {}) {
    super(message)
    this.name = 'RemoteError'
    this.status = status
    this.retryable = retryable
    this.retryAfterMs = retryAfterMs
  }
}

export const abortableSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal))
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(t)
      reject(abortError(signal!))
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })

export const abortError = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : Object.assign(new Error('cancelled'), { name: 'AbortError' })

export const isAbort = (e: unknown): boolean => e instanceof Error && (e.name === 'AbortError' || e.message === 'cancelled')

/** retry-after as seconds or an HTTP date. */
export function parseRetryAfter(v: string | null, now = Date.now()): number | null {
  if (!v) return null
  if (/^\d+(\.\d+)?$/.test(v.trim())) return Math.round(Number(v) * 1000)
  const t = Date.parse(v)
  return Number.isNaN(t) ? null : Math.max(0, t - now)
}

/** Runs `fn` until it succeeds, a non-retryable error occurs, attempts run out, or `signal` aborts. */
export async function withRetry<T>(fn: (signal: AbortSignal) => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const { attempts = 4, timeoutMs = 120_000, baseDelayMs = 500, maxDelayMs = 30_000, signal, sleep = abortableSleep } = opts
  let last: unknown
  for (let i = 0; i < attempts; i++) {
    if (signal?.aborted) throw abortError(signal)
    const attemptSignal = signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs)
    try {
      return await fn(attemptSignal)
    } catch (e) {
      if (signal?.aborted) throw abortError(signal)
      const err = toRemoteError(e)
      last = err
      if (!err.retryable || i === attempts - 1) throw err
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** i) * (0.75 + Math.random() * 0.5)
      await sleep(Math.min(maxDelayMs, err.retryAfterMs ?? backoff), signal)
    }
  }
  throw last
}

function toRemoteError(e: unknown): RemoteError {
  if (e instanceof RemoteError) return e
  if (e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')) {
    return new RemoteError('the provider did not answer in time', { retryable: true })
  }
  // fetch() network failures (connection refused/reset) are worth another try.
  if (e instanceof TypeError) return new RemoteError(`could not reach the provider (${(e.cause as Error)?.message ?? e.message})`, { retryable: true })
  return new RemoteError(e instanceof Error ? e.message : String(e))
}

/** POSTs JSON and returns the parsed JSON body; HTTP failures become RemoteError (429/5xx retryable). */
export async function postJson(url: string, body: unknown, headers: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal,
  })
  const text = await res.text()
  if (!res.ok) {
    const retryable = res.status === 429 || res.status === 408 || res.status >= 500
    throw new RemoteError(`HTTP ${res.status}: ${scrub(errorMessage(text), headers)}`, {
      status: res.status,
      retryable,
      retryAfterMs: parseRetryAfter(res.headers.get('retry-after')),
    })
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new RemoteError('the provider answered with malformed JSON', { retryable: true })
  }
}

/** A server may echo what it was sent: never let a header value (an API key) into a message. */
function scrub(message: string, headers: Record<string, string>): string {
  let m = message
  for (const v of Object.values(headers)) {
    const secret = v.replace(/^Bearer\s+/i, '')
    if (secret.length >= 8) m = m.split(secret).join('[redacted]')
  }
  return m
}

/** The provider's own error message, trimmed; never echoes request headers (keys). */
function errorMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string; message?: string }
    const m = typeof j.error === 'string' ? j.error : j.error?.message ?? j.message
    if (m) return String(m).slice(0, 300)
  } catch {
    // not JSON
  }
  return text.slice(0, 200) || 'no details'
}

/** Turns a final remote failure into the AppError the settings test reports. */
export function describeFailure(e: unknown, provider: string): AppError {
  if (e instanceof RemoteError && (e.status === 401 || e.status === 403)) {
    return new AppError('VALIDATION_ERROR', `${provider} refused the credentials (${e.message}); check the API key in Settings.`)
  }
  if (e instanceof RemoteError && e.status === 404) {
    return new AppError('VALIDATION_ERROR', `${provider} does not know this model or address (${e.message}); check the model name and base URL.`)
  }
  return new AppError('VALIDATION_ERROR', `${provider} call failed: ${e instanceof Error ? e.message : String(e)}`)
}

/** At most `n` calls at a time. */
export function createLimiter(n: number) {
  let active = 0
  const waiting: Array<() => void> = []
  return async function limit<T>(fn: () => Promise<T>): Promise<T> {
    if (active >= n) await new Promise<void>((r) => waiting.push(r))
    active++
    try {
      return await fn()
    } finally {
      active--
      waiting.shift()?.()
    }
  }
}

/** USD per million tokens (input, output). Unknown models count tokens at no cost. */
const PRICES: Array<[RegExp, number, number]> = [
  [/claude-.*opus/i, 15, 75],
  [/claude-.*sonnet/i, 3, 15],
  [/claude-.*haiku-4/i, 1, 5],
  [/claude-.*haiku/i, 0.8, 4],
  [/gpt-4o-mini/i, 0.15, 0.6],
  [/gpt-4o/i, 2.5, 10],
  [/gpt-4\.1-nano/i, 0.1, 0.4],
  [/gpt-4\.1-mini/i, 0.4, 1.6],
  [/gpt-4\.1/i, 2, 8],
  [/gpt-5-nano/i, 0.05, 0.4],
  [/gpt-5-mini/i, 0.25, 2],
  [/gpt-5/i, 1.25, 10],
  [/text-embedding-3-small/i, 0.02, 0],
  [/text-embedding-3-large/i, 0.13, 0],
]

export function costUsd(model: string, tokensIn: number, tokensOut: number): number {
  const p = PRICES.find(([re]) => re.test(model))
  return p ? (tokensIn * p[1] + tokensOut * p[2]) / 1e6 : 0
}
