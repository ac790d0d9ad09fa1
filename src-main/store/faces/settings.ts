/**
 * The store as src-main/settings/ sees it: the AI and pipeline settings (secrets live in the credential store).
 * Every function takes the opaque `Db` that openDatabase returns; nothing else of the store is settings's to
 * call.
 */
export type { Db } from '../db.ts'
export { readAiSettings, writeAiSettings, type StoredAiSettings } from '../queries/settings.ts'
