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

/** Verifies signature (HS256 only: `alg: none` and other algorithms are refused), expiry and claims. */
export async function verifyToken(key: Uint8Array, token: string, nowMs: number): Promise<TokenClaims> {
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
