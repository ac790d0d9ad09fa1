import { AppError } from '../../src-shared/errors.ts'
import type { Role } from '../../src-shared/roles.ts'
import type { User } from '../../src-shared/schemas/users.ts'
import {
  countAdmins, countUsers, type Db, deleteUser, findUserByEmail, findUserById, insertUser, listUsers, transaction, updateUser, type UserRow,
} from '../store/index.ts'
import { hashPassword } from './passwords.ts'

export const toUser = (row: UserRow): User => ({ id: row.id, name: row.name, email: row.email, role: row.role })

export interface UserAdminDeps {
  db: Db
  bcryptCost?: number
}

/** Account management; the last admin can never be removed or demoted. */
export function createUserAdmin({ db, bcryptCost }: UserAdminDeps) {
  const mustFind = (id: number) => {
    const row = findUserById(db, id)
    if (!row) throw new AppError('NOT_FOUND', `No user with id ${id}.`)
    return row
  }

  async function create(input: { email: string; name: string; role: Role; password: string }): Promise<User> {
    const passwordHash = await hashPassword(input.password, bcryptCost)
    return transaction(db, () => {
      if (findUserByEmail(db, input.email)) {
        throw new AppError('VALIDATION_ERROR', `An account with the e-mail ${input.email} already exists; sign in instead.`, { field: 'email' })
      }
      return toUser(insertUser(db, { email: input.email, name: input.name, role: input.role, passwordHash }))
    })
  }

  function setRole(id: number, role: Role): User {
    return transaction(db, () => {
      const row = mustFind(id)
      if (row.role === 'admin' && role !== 'admin' && countAdmins(db) <= 1) {
        throw new AppError('VALIDATION_ERROR', 'This is the last admin and cannot be demoted; make someone else an admin first.', { field: 'role' })
      }
      return toUser(updateUser(db, id, { role })!)
    })
  }

  async function setPassword(id: number, password: string): Promise<User> {
    mustFind(id)
    const passwordHash = await hashPassword(password, bcryptCost)
    return toUser(updateUser(db, id, { passwordHash })!)
  }

  function remove(id: number): void {
    transaction(db, () => {
      const row = mustFind(id)
      if (row.role === 'admin' && countAdmins(db) <= 1) {
        throw new AppError('VALIDATION_ERROR', 'This is the last admin and cannot be removed; make someone else an admin first.')
      }
      deleteUser(db, id)
    })
  }

  const list = (): User[] => listUsers(db).map(toUser)
  const get = (id: number): User => toUser(mustFind(id))
  const findByEmail = (email: string): User | null => {
    const row = findUserByEmail(db, email.trim().toLowerCase())
    return row ? toUser(row) : null
  }
  const count = (): number => countUsers(db)

  return { create, setRole, setPassword, remove, list, get, findByEmail, count }
}
export type UserAdmin = ReturnType<typeof createUserAdmin>
