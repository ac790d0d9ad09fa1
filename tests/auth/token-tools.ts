import { createHmac } from 'node:crypto'

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url')

export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = token.split('.')
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as Record<string, unknown>,
  }
}

/** Builds a JWT by hand so tests can forge what a library would refuse to produce. */
export function forgeJwt(header: object, payload: object, key: string | Buffer | null): string {
  const head = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`
  if (key === null) return `${head}.`
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`
}

/** The token value from a Client's cookie ("token=...") */
export const tokenOf = (cookie: string | null): string => {
  if (!cookie?.startsWith('token=')) throw new Error(`no token cookie: ${cookie}`)
  return cookie.slice('token='.length)
}
