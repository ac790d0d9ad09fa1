import { desc, eq } from 'drizzle-orm'
import { connection, type Db } from '../db.ts'
import { invites } from '../schema.ts'

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
