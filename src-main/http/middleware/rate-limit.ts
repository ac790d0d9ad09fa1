import type { Context, MiddlewareHandler } from 'hono'
import { AppError } from '../../../src-shared/errors.ts'
import type { AppEnv } from '../app-env.ts'

export interface RateLimitOptions {
  /** Read per request so operators and tests can change it. */
  rule: () => { limit: number; windowMs: number }
  /** What the limit is counted per, e.g. the client address or the signed-in user. */
  key: (c: Context<AppEnv>) => string
  clock?: () => number
  /** A word for the message, e.g. "sign-in attempts". */
  what: string
}

interface Window {
  start: number
  count: number
}

/**
 * Fixed-window counting with the IETF RateLimit-* headers on every response and Retry-After on 429.
 * State is per process, which is what a single local server needs.
 */
export function rateLimit({ rule, key, clock = Date.now, what }: RateLimitOptions): MiddlewareHandler<AppEnv> {
  const windows = new Map<string, Window>()
  let lastSweep = 0
  const sweep = (now: number, windowMs: number) => {
    if (now - lastSweep < windowMs) return
    lastSweep = now
    for (const [k, w] of windows) if (now - w.start >= windowMs) windows.delete(k)
  }
  return async function rateLimit(c, next) {
    const { limit, windowMs } = rule()
    const now = clock()
    sweep(now, windowMs)
    const k = key(c)
    let w = windows.get(k)
    if (!w || now - w.start >= windowMs) {
      w = { start: now, count: 0 }
      windows.set(k, w)
    }
    w.count += 1
    const resetSeconds = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000))
    c.header('RateLimit-Limit', String(limit))
    c.header('RateLimit-Remaining', String(Math.max(0, limit - w.count)))
    c.header('RateLimit-Reset', String(resetSeconds))
    c.header('RateLimit-Policy', `${limit};w=${Math.round(windowMs / 1000)}`)
    if (w.count > limit) {
      c.header('Retry-After', String(resetSeconds))
      throw new AppError('RATE_LIMITED', `Too many ${what}; try again in ${resetSeconds} seconds.`)
    }
    await next()
  }
}
