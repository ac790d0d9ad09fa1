import { and, count, desc, eq, isNull } from 'drizzle-orm'
import { connection, stmt, type Db } from '../db.ts'
import { remembered } from '../remembered.ts'
import { apiTokens, invites, users } from '../schema.ts'

/** The household's accounts, their invites and API tokens: what src-main/auth keeps. */

export type UserRow = typeof users.$inferSelect
export type Role = UserRow['role']

export const findUserByEmail = (db: Db, email: string): UserRow | null =>
  connection(db).select().from(users).where(eq(users.email, email)).get() ?? null

/**
 * Read on every request (role and existence), so kept in memory until the library changes (remembered.ts:
 * a role changed or a user removed, here or by another process, is seen by the next request); a copy each call.
 */
export function findUserById(db: Db, id: number): UserRow | null {
  const row = remembered(db, `user:${id}`, () => stmt(db, `SELECT id, email, name, role, password_hash AS passwordHash, created_at AS createdAt,
    updated_at AS updatedAt FROM users WHERE id = ?`).get(id) as UserRow | undefined)
  return row ? { ...row } : null
}

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

export type InviteRow = typeof invites.$inferSelect

export const insertInvite = (
  db: Db,
  values: { codeHash: string; hint: string; role: InviteRow['role']; createdBy: number | null; createdAt: number; expiresAt: number },
): InviteRow => connection(db).insert(invites).values(values).returning().get()

export const findInviteByHash = (db: Db, codeHash: string): InviteRow | null =>
  connection(db).select().from(invites).where(eq(invites.codeHash, codeHash)).get() ?? null

export const findInviteById = (db: Db, id: number): InviteRow | null =>
  connection(db).select().from(invites).where(eq(invites.id, id)).get() ?? null

export const listInvites = (db: Db): InviteRow[] => connection(db).select().from(invites).orderBy(desc(invites.id)).all()

export const markInvite = (
  db: Db,
  id: number,
  values: Partial<Pick<InviteRow, 'usedAt' | 'usedBy' | 'revokedAt'>>,
): void => {
  connection(db).update(invites).set(values).where(eq(invites.id, id)).run()
}

export type ApiTokenRow = typeof apiTokens.$inferSelect
export type NewApiToken = Pick<typeof apiTokens.$inferInsert, 'userId' | 'name' | 'tokenHash' | 'hint' | 'readOnly' | 'createdAt'>

export const insertApiToken = (db: Db, values: NewApiToken): ApiTokenRow =>
  connection(db).insert(apiTokens).values(values).returning().get()

/** Read on every token request, so a cached statement, not a built query. */
export function findApiTokenByHash(db: Db, tokenHash: string): ApiTokenRow | null {
  const row = stmt(db, `SELECT id, user_id AS userId, name, token_hash AS tokenHash, hint, read_only AS readOnly,
    created_at AS createdAt, last_used_at AS lastUsedAt, revoked_at AS revokedAt FROM api_tokens WHERE token_hash = ?`)
    .get(tokenHash) as (Omit<ApiTokenRow, 'readOnly'> & { readOnly: number }) | undefined
  return row ? { ...row, readOnly: row.readOnly === 1 } : null
}

export const findApiTokenById = (db: Db, id: number): ApiTokenRow | null =>
  connection(db).select().from(apiTokens).where(eq(apiTokens.id, id)).get() ?? null

/** Active tokens, newest first; every user's when `userId` is null. */
export const listApiTokens = (db: Db, userId: number | null): ApiTokenRow[] =>
  connection(db).select().from(apiTokens)
    .where(and(isNull(apiTokens.revokedAt), userId === null ? undefined : eq(apiTokens.userId, userId)))
    .orderBy(desc(apiTokens.id)).all()

export const markApiTokenUsed = (db: Db, id: number, at: number): void => {
  stmt(db, 'UPDATE api_tokens SET last_used_at = ? WHERE id = ?').run(at, id)
}

export const revokeApiToken = (db: Db, id: number, at: number): void => {
  connection(db).update(apiTokens).set({ revokedAt: at }).where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt))).run()
}
