/**
 * The store as src-main/threads/ sees it: posts' places in their threads. Every function takes the opaque `Db`
 * that openDatabase returns; nothing else of the store is threads's to call.
 */
export type { Db } from '../db.ts'
export { bookmarksByIds, type BookmarkRecord } from '../queries/bookmarks.ts'
export {
  bookmarkIdsByPostIds, clearThreadPlace, selfReplies, setThreadPlace, storedThreadPlaces, threadParts,
} from '../queries/threads.ts'
