import type { SecretStore } from '../secrets/index.ts'
import type { Db } from '../store/index.ts'
import { createApiTokens } from './api-tokens.ts'
import { createInvites } from './invites.ts'
import { createSessions } from './sessions.ts'
import { createSigningKey } from './signing-key.ts'
import { createUserAdmin } from './users.ts'

export { TOKEN_TTL_SECONDS, signToken, verifyToken, type TokenClaims } from './tokens.ts'
export { BCRYPT_COST, hashPassword, verifyPassword } from './passwords.ts'
export { hashInviteCode } from './invites.ts'
export type { Session, Sessions } from './sessions.ts'
export type { Invites } from './invites.ts'
export { looksLikeApiToken, hashApiToken, type ApiTokens } from './api-tokens.ts'
export type { UserAdmin } from './users.ts'

export interface AuthDeps {
  db: Db
  secrets: SecretStore
  clock: () => number
  bcryptCost?: number
}

export function createAuth({ db, secrets, clock, bcryptCost }: AuthDeps) {
  const key = createSigningKey({ db, secrets })
  const invites = createInvites({ db, clock })
  const users = createUserAdmin({ db, bcryptCost })
  const sessions = createSessions({ db, key, invites, clock, bcryptCost })
  const tokens = createApiTokens({ db, clock })
  return { key, invites, users, sessions, tokens }
}
export type Auth = ReturnType<typeof createAuth>
