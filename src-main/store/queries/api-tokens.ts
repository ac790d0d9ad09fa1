import { and, desc, eq, isNull } from 'drizzle-orm'
import { connection, stmt, type Db } from '../db.ts'
import { apiTokens } from '../schema.ts'

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
