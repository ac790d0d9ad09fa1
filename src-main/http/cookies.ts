import type { Context } from 'hono'
import { TOKEN_TTL_SECONDS } from '../auth/index.ts'
import { TOKEN_COOKIE } from './middleware/session.ts'

/** Written by hand to keep the attribute order the contract states. */
export const setSessionCookie = (c: Context, token: string) =>
  c.header('Set-Cookie', `${TOKEN_COOKIE}=${token}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=${TOKEN_TTL_SECONDS}`)

export const clearSessionCookie = (c: Context) =>
  c.header('Set-Cookie', `${TOKEN_COOKIE}=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0`)
