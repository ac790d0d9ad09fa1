export { openDatabase, closeDatabase, MIGRATIONS_DIR, type Db, type OpenDatabaseOptions } from './db.ts'
export * as schema from './schema.ts'
export * from './queries/users.ts'
export * from './queries/invites.ts'
export * from './queries/settings.ts'

/** Runs `fn` in one SQLite transaction (all or nothing). */
export function transaction<T>(db: import('./db.ts').Db, fn: () => T): T {
  return db.$client.transaction(fn)()
}
export * from './queries/bookmarks.ts'
export * from './queries/bookmark-writes.ts'
export * from './queries/bookmark-knowledge.ts'
export * from './queries/media.ts'
export * from './queries/categories.ts'
export * from './queries/notes.ts'
export * from './queries/tags.ts'
export * from './queries/import-history.ts'
export * from './queries/library-stats.ts'
export { dataStamp, libraryStamp } from './queries/statements.ts'
export * from './queries/knowledge.ts'
export * from './queries/jobs.ts'
export * from './queries/embeddings.ts'
export * from './queries/settings-ai.ts'
export * from './queries/search.ts'
export * from './queries/language.ts'
export * from './queries/post-keys.ts'
export * from './queries/merged-posts.ts'
export * from './queries/threads.ts'
