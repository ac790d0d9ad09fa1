import { count, eq } from 'drizzle-orm'
import { connection, stmt, type Db } from '../db.ts'
import { users } from '../schema.ts'

export type UserRow = typeof users.$inferSelect
export type Role = UserRow['role']

export const findUserByEmail = (db: Db, email: string): UserRow | null =>
  connection(db).select().from(users).where(eq(users.email, email)).get() ?? null

/** Read on every request (role and existence), so a cached statement, not a built query. */
export const findUserById = (db: Db, id: number): UserRow | null =>
  (stmt(db, `SELECT id, email, name, role, password_hash AS passwordHash, created_at AS createdAt, updated_at AS updatedAt
    FROM users WHERE id = ?`).get(id) as UserRow | undefined) ?? null

export const listUsers = (db: Db): UserRow[] => connection(db).select().from(users).orderBy(users.id).all()

export const countUsers = (db: Db): number => connection(db).select({ n: count() }).from(users).get()?.n ?? 0

export const countAdmins = (db: Db): number =>
  connection(db).select({ n: count() }).from(users).where(eq(users.role, 'admin')).get()?.n ?? 0

export const insertUser = (
  db: Db,
  values: { email: string; name: string; role: Role; passwordHash: string },
): UserRow => connection(db).insert(users).values(values).returning().get()

export const updateUser = (
  db: Db,
  id: number,
  values: Partial<Pick<UserRow, 'role' | 'passwordHash' | 'name'>>,
): UserRow | null =>
  connection(db).update(users).set({ ...values, updatedAt: Date.now() }).where(eq(users.id, id)).returning().get() ?? null

export const deleteUser = (db: Db, id: number): boolean =>
  connection(db).delete(users).where(eq(users.id, id)).run().changes > 0
