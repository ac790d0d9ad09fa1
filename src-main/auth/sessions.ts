import { AppError } from '../../src-shared/errors.ts'
import type { RegisterBody, SetupBody, User } from '../../src-shared/schemas/users.ts'
import { countUsers, type Db, findUserByEmail, findUserById, insertUser, transaction, type UserRow } from '../store/index.ts'
import type { Invites } from './invites.ts'
import { createDummyHash, hashPassword, verifyPassword } from './passwords.ts'
import type { SigningKey } from './signing-key.ts'
import { signToken, verifyToken, type TokenClaims } from './tokens.ts'
import { toUser } from './users.ts'

export interface SessionDeps {
  db: Db
  key: SigningKey
  invites: Invites
  clock: () => number
  bcryptCost?: number
}

export interface Session {
  user: User
  token: string
  claims: TokenClaims
}

const BAD_LOGIN = 'The e-mail or password is not right.'

export function createSessions({ db, key, invites, clock, bcryptCost }: SessionDeps) {
  let dummyHash: Promise<string> | null = null

  const issue = async (user: User): Promise<Session> => {
    const { token, claims } = await signToken(await key.current(), user, clock())
    return { user, token, claims }
  }

  async function login(email: string, password: string): Promise<Session> {
    const row = findUserByEmail(db, email.trim().toLowerCase())
    dummyHash ??= createDummyHash(bcryptCost)
    const ok = await verifyPassword(password, row?.passwordHash ?? (await dummyHash))
    if (!row || !ok) throw new AppError('UNAUTHORIZED', BAD_LOGIN)
    return issue(toUser(row))
  }

  async function register(body: RegisterBody): Promise<Session> {
    invites.peek(body.inviteCode)
    const passwordHash = await hashPassword(body.password, bcryptCost)
    const user = transaction(db, () => {
      if (findUserByEmail(db, body.email)) {
        throw new AppError('VALIDATION_ERROR', `An account with the e-mail ${body.email} already exists; sign in instead.`, { field: 'email' })
      }
      let created: UserRow | null = null
      invites.consume(body.inviteCode, (role) => {
        created = insertUser(db, { email: body.email, name: body.name, role, passwordHash })
        return created.id
      })
      return toUser(created!)
    })
    return issue(user)
  }

  /** The first admin, from the setup form; only while no user exists (the route checks loopback). */
  async function setup(body: SetupBody): Promise<Session> {
    const passwordHash = await hashPassword(body.password, bcryptCost)
    const user = transaction(db, () => {
      if (countUsers(db) > 0) throw new AppError('FORBIDDEN', 'Sheaf is already set up; sign in instead.')
      return toUser(insertUser(db, { email: body.email, name: body.name, role: 'admin', passwordHash }))
    })
    return issue(user)
  }

  /**
   * The user behind a token. Role and existence come from the database on every request, so a role
   * change or removal takes effect at once whatever the token claims.
   */
  async function authenticate(token: string): Promise<{ user: User; claims: TokenClaims }> {
    const claims = await verifyToken(await key.current(), token, clock())
    const row = findUserById(db, Number(claims.sub))
    if (!row) throw new AppError('UNAUTHORIZED', 'This account no longer exists. Please sign in again.')
    return { user: toUser(row), claims }
  }

  const needsSetup = (): boolean => countUsers(db) === 0

  return { login, register, setup, authenticate, issue, needsSetup }
}
export type Sessions = ReturnType<typeof createSessions>
