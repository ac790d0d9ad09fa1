import { createHash, randomBytes } from 'node:crypto'
import { AppError } from '../../src-shared/errors.ts'
import { can, forbiddenMessage } from '../../src-shared/roles.ts'
import { API_TOKEN_PREFIX, type ApiToken, type CreateTokenBody, type TokenCreated, type TokenIdentity } from '../../src-shared/schemas/tokens.ts'
import type { User } from '../../src-shared/schemas/users.ts'
import {
  type ApiTokenRow, type Db, findApiTokenByHash, findApiTokenById, findUserById, insertApiToken, listApiTokens, markApiTokenUsed, revokeApiToken,
} from '../store/index.ts'
import { toUser } from './users.ts'

/** 256 random bits: a hash of it cannot be reversed by guessing, so a fast hash is enough (docs/decisions.md). */
const SECRET_BYTES = 32
const HINT_LENGTH = API_TOKEN_PREFIX.length + 4
/** last_used_at is written at most this often per token, not on every request. */
const TOUCH_EVERY_MS = 60_000

export const hashApiToken = (secret: string): string => createHash('sha256').update(secret).digest('hex')
export const looksLikeApiToken = (s: string): boolean => s.startsWith(API_TOKEN_PREFIX)

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

const toApiToken = (row: ApiTokenRow): ApiToken => ({
  id: row.id,
  name: row.name,
  hint: row.hint,
  readOnly: row.readOnly,
  userId: row.userId,
  createdAt: iso(row.createdAt)!,
  lastUsedAt: iso(row.lastUsedAt),
  revokedAt: iso(row.revokedAt),
})

const unauthorized = (why: string) => new AppError('UNAUTHORIZED', why)

export interface ApiTokenDeps {
  db: Db
  clock: () => number
}

/** Personal API tokens: named, shown once, stored as SHA-256, optionally read-only, revocable. */
export function createApiTokens({ db, clock }: ApiTokenDeps) {
  function create(user: User, body: CreateTokenBody): TokenCreated {
    if (!can(user.role, 'tokens:manage')) throw new AppError('FORBIDDEN', forbiddenMessage(user.role, 'tokens:manage'))
    const secret = API_TOKEN_PREFIX + randomBytes(SECRET_BYTES).toString('base64url')
    const row = insertApiToken(db, {
      userId: user.id,
      name: body.name,
      tokenHash: hashApiToken(secret),
      hint: secret.slice(0, HINT_LENGTH),
      readOnly: body.readOnly,
      createdAt: clock(),
    })
    return { token: toApiToken(row), secret }
  }

  /** A person's active tokens, or everyone's (`null`, for the CLI). */
  const list = (userId: number | null): ApiToken[] => listApiTokens(db, userId).map(toApiToken)

  /** Revokes a token; `ownerId` limits it to that person's tokens (another's answers 404, as if absent). */
  function revoke(id: number, ownerId: number | null): ApiToken {
    const row = findApiTokenById(db, id)
    if (!row || (ownerId !== null && row.userId !== ownerId)) throw new AppError('NOT_FOUND', `No API token with id ${id}.`)
    revokeApiToken(db, id, clock())
    return toApiToken(findApiTokenById(db, id)!)
  }

  const lastTouched = new Map<number, number>()
  function touch(id: number, now: number): void {
    if (now - (lastTouched.get(id) ?? 0) < TOUCH_EVERY_MS) return
    lastTouched.set(id, now)
    markApiTokenUsed(db, id, now)
  }

  /**
   * The user behind a token, read from the database on every request: a revoked token or a removed
   * user is refused on the very next request, and a role change applies at once.
   */
  function authenticate(secret: string): { user: User; token: TokenIdentity } {
    const row = findApiTokenByHash(db, hashApiToken(secret))
    if (!row) throw unauthorized('This API token is not valid; create one in Settings or with `sheaf token create`.')
    if (row.revokedAt !== null) throw unauthorized('This API token has been revoked; create a new one in Settings.')
    const user = findUserById(db, row.userId)
    if (!user) throw unauthorized('The account this API token belongs to no longer exists.')
    touch(row.id, clock())
    return { user: toUser(user), token: { id: row.id, name: row.name, readOnly: row.readOnly } }
  }

  return { create, list, revoke, authenticate }
}
export type ApiTokens = ReturnType<typeof createApiTokens>
