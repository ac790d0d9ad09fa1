import { getConnInfo } from '@hono/node-server/conninfo'
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../app-env.ts'

export const isLoopbackAddress = (addr: string): boolean =>
  addr === '::1' || /^(::ffff:)?127\./.test(addr)

/** Records the socket's address; X-Forwarded-For is never trusted. */
export const clientInfo = (): MiddlewareHandler<AppEnv> =>
  async function clientInfo(c, next) {
    let addr = 'unknown'
    try {
      addr = getConnInfo(c).remote.address ?? 'unknown'
    } catch {
      // app.request() in tests has no socket
    }
    c.set('clientIp', addr)
    c.set('isLoopback', isLoopbackAddress(addr))
    await next()
  }
