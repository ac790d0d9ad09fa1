import { connection, type Db } from '../db.ts'
import { settings } from '../schema.ts'
import { stmt } from './statements.ts'

/** Read on every request (the signing key's version), so a cached statement, not a built query. */
export const getSetting = <T>(db: Db, key: string): T | null => {
  const text = stmt(db, 'SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined
  return text === undefined ? null : (JSON.parse(text) as T)
}

export const putSetting = (db: Db, key: string, value: unknown): void => {
  connection(db).insert(settings)
    .values({ key, value, updatedAt: Date.now() })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: Date.now() } })
    .run()
}

