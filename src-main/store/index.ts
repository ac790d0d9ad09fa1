/**
 * The store: the library's SQLite database (better-sqlite3 and drizzle; neither leaves this folder).
 * This face opens and closes it, for the composition root; each capability calls the store through
 * its own face in ./faces/ (what library, search, pipeline, auth, member, ... may call), and lint
 * (eslint.config.js) holds each to its own. `Db` is opaque outside the store.
 */
export { closeDatabase, MIGRATIONS_DIR, openDatabase, type Db, type OpenDatabaseOptions } from './db.ts'
