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
    // The LAN listener is never "this machine", even when a test binds it to a loopback address.
    c.set('isLoopback', isLoopbackAddress(addr) && c.env?.listener !== 'lan')
    await next()
  }
