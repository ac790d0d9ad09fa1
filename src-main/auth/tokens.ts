import { SignJWT, jwtVerify, errors as joseErrors } from 'jose'
import { AppError } from '../../src-shared/errors.ts'
import { isRole, type Role } from '../../src-shared/roles.ts'

export const TOKEN_TTL_SECONDS = 24 * 60 * 60

export interface TokenClaims {
  sub: string
  email: string
  role: Role
  iat: number
  exp: number
}

export async function signToken(
  key: Uint8Array,
  user: { id: number; email: string; role: Role },
  nowMs: number,
): Promise<{ token: string; claims: TokenClaims }> {
  const iat = Math.floor(nowMs / 1000)
  const claims: TokenClaims = { sub: String(user.id), email: user.email, role: user.role, iat, exp: iat + TOKEN_TTL_SECONDS }
  const token = await new SignJWT({ email: claims.email, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt(iat)
    .setExpirationTime(claims.exp)
    .sign(key)
  return { token, claims }
}

const unauthorized = (why: string) => new AppError('UNAUTHORIZED', `${why} Please sign in again.`)

/**
 * Tokens whose signature and claims were already checked under a key: every request carries the
 * same cookie, and checking an HMAC through WebCrypto costs more than the rest of a list request.
 * Expiry is still checked on every use; a new key (rotation) starts an empty cache.
 */
const verified = new WeakMap<Uint8Array, Map<string, TokenClaims>>()
const VERIFIED_MAX = 1000

/** Verifies signature (HS256 only: `alg: none` and other algorithms are refused), expiry and claims. */
export async function verifyToken(key: Uint8Array, token: string, nowMs: number): Promise<TokenClaims> {
  let known = verified.get(key)
  if (!known) verified.set(key, (known = new Map()))
  const hit = known.get(token)
  if (hit) {
    if (hit.exp <= Math.floor(nowMs / 1000)) throw unauthorized('Your session has expired.')
    return hit
  }
  const claims = await verifySignedToken(key, token, nowMs)
  if (known.size >= VERIFIED_MAX) known.delete(known.keys().next().value!)
  known.set(token, claims)
  return claims
}

async function verifySignedToken(key: Uint8Array, token: string, nowMs: number): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      currentDate: new Date(nowMs),
      requiredClaims: ['sub', 'iat', 'exp'],
    })
    const { sub, email, role, iat, exp } = payload
    if (typeof sub !== 'string' || !/^\d+$/.test(sub) || typeof email !== 'string' || !isRole(role)) {
      throw unauthorized('Your session token is malformed.')
    }
    return { sub, email, role, iat: iat as number, exp: exp as number }
  } catch (e) {
    if (e instanceof AppError) throw e
    if (e instanceof joseErrors.JWTExpired) throw unauthorized('Your session has expired.')
    throw unauthorized('Your session token is not valid.')
  }
}
