import type { MiddlewareHandler } from 'hono'
import { AppError } from '../../../src-shared/errors.ts'
import type { AppEnv } from '../app-env.ts'

export interface HostCheckOptions {
  /** Names and addresses served besides localhost and loopback (e.g. LAN addresses); read per request. */
  allowedHosts: () => readonly string[]
}

export function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']'))
  const i = h.lastIndexOf(':')
  return i > -1 && h.indexOf(':') === i ? h.slice(0, i) : h
}

const isLocalName = (name: string) =>
  name === 'localhost' || name.endsWith('.localhost') || name === '::1' || /^127\.\d+\.\d+\.\d+$/.test(name)

/** Refuses requests whose Host is not one we serve: the defence against DNS rebinding. */
export const hostCheck = ({ allowedHosts }: HostCheckOptions): MiddlewareHandler<AppEnv> =>
  async function hostCheck(c, next) {
    const host = c.req.header('host')
    const name = host ? hostnameOf(host) : ''
    if (!name || !(isLocalName(name) || allowedHosts().includes(name))) {
      throw new AppError('FORBIDDEN', `Requests for host "${host ?? ''}" are not served here; use the address Sheaf printed.`)
    }
    await next()
  }
