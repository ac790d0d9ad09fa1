/**
 * The store as src-main/media/ sees it: where a media item is cached. Every function takes the opaque `Db` that
 * openDatabase returns; nothing else of the store is media's to call.
 */
export type { Db } from '../db.ts'
export { mediaCacheEntry } from '../queries/knowledge.ts'
