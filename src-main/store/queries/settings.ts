import { eq } from 'drizzle-orm'
import type { Db } from '../db.ts'
import { settings } from '../schema.ts'

export const getSetting = <T>(db: Db, key: string): T | null =>
  (db.select().from(settings).where(eq(settings.key, key)).get()?.value as T | undefined) ?? null

export const putSetting = (db: Db, key: string, value: unknown): void => {
  db.insert(settings)
    .values({ key, value, updatedAt: Date.now() })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: Date.now() } })
    .run()
}

export const getAllSettings = (db: Db): Record<string, unknown> =>
  Object.fromEntries(db.select().from(settings).all().map((r) => [r.key, r.value]))
