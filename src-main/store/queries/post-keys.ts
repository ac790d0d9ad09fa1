import { idList, stmt, type Db } from '../db.ts'
import type { BookmarkRow, postKeys } from '../schema.ts'

export type PostKeyKind = (typeof postKeys.$inferSelect)['kind']
export type PostKeyRow = typeof postKeys.$inferSelect

/** Adds keys of one post (already there: ignored). */
export function insertPostKeys(db: Db, bookmarkId: number, keys: ReadonlyArray<{ kind: PostKeyKind; key: string }>): void {
  const s = stmt(db, 'INSERT OR IGNORE INTO post_keys (kind, key, bookmark_id) VALUES (?, ?, ?)')
  for (const k of keys) s.run(k.kind, k.key, bookmarkId)
}

/**
 * Queues every post with an id above `afterId` for its duplicate keys, in one set-based statement: an
 * import leaves computing and writing keys to the background (library/duplicate-keys-fill.ts), which
 * kept it at its speed (keys written inline cost ~25% of a 100,000-post import).
 */
export function queueNewPostsForKeys(db: Db, afterId: number): void {
  stmt(db, 'INSERT INTO post_keys_queue (bookmark_id) SELECT id FROM bookmarks WHERE id > ? ON CONFLICT DO NOTHING').run(afterId)
}

export function queueForKeys(db: Db, bookmarkId: number): void {
  stmt(db, 'INSERT INTO post_keys_queue (bookmark_id) VALUES (?) ON CONFLICT DO NOTHING').run(bookmarkId)
}

/**
 * The other posts sharing a key with `bookmarkId`, one row per shared key, skipping keys held by more
 * than `maxGroup` posts (a link many posts carry, such as a support page, says nothing about copies).
 */
export function postsSharingKeys(db: Db, bookmarkId: number, maxGroup: number): Array<{ id: number; kind: PostKeyKind; key: string }> {
  return stmt(db, `SELECT o.bookmark_id AS id, o.kind, o.key FROM post_keys k
      JOIN post_keys o ON o.kind = k.kind AND o.key = k.key AND o.bookmark_id <> k.bookmark_id
    WHERE k.bookmark_id = ?
      AND (SELECT count(*) FROM (SELECT 1 FROM post_keys g WHERE g.kind = k.kind AND g.key = k.key LIMIT ?)) <= ?`)
    .all(bookmarkId, maxGroup + 1, maxGroup) as Array<{ id: number; kind: PostKeyKind; key: string }>
}

/** Posts quoting the post `postId` (the quoted post itself is a copy of what they share). */
export const postsQuoting = (db: Db, postId: string, limit: number): number[] =>
  stmt(db, "SELECT bookmark_id FROM post_keys WHERE kind = 'quote' AND key = ? LIMIT ?").pluck().all(postId, limit) as number[]

/** Meaning pairs found by the pipeline for `ids`: drops their old pairs, then writes the new ones (both posts get the row). */
export function replaceMeaningPairs(db: Db, ids: readonly number[], pairs: ReadonlyArray<readonly [number, number]>): void {
  stmt(db, `DELETE FROM post_keys WHERE kind = 'meaning' AND key IN
    (SELECT key FROM post_keys WHERE kind = 'meaning' AND bookmark_id IN (SELECT value FROM json_each(?)))`).run(idList(ids))
  const s = stmt(db, "INSERT OR IGNORE INTO post_keys (kind, key, bookmark_id) VALUES ('meaning', ?, ?)")
  for (const [a, b] of pairs) {
    const key = a < b ? `${a}:${b}` : `${b}:${a}`
    s.run(key, a)
    s.run(key, b)
  }
}

/** Moves a post's keys to another (a merge): what found the merged post now finds the one kept. */
export function movePostKeys(db: Db, fromId: number, toId: number): void {
  stmt(db, `INSERT OR IGNORE INTO post_keys (kind, key, bookmark_id)
    SELECT kind, key, ? FROM post_keys WHERE bookmark_id = ? AND kind <> 'meaning'`).run(toId, fromId)
  stmt(db, 'DELETE FROM post_keys WHERE bookmark_id = ?').run(fromId)
}

/** What a post's duplicate keys are made from. */
export type KeyedRow = Pick<BookmarkRow, 'id' | 'postId' | 'text' | 'urls' | 'quoted'>

/** The next posts waiting for keys (libraries imported before migration 0010), oldest first. */
export const queuedForKeys = (db: Db, limit: number): KeyedRow[] =>
  stmt(db, `SELECT b.id, b.post_id AS postId, b.text, b.urls, b.quoted FROM bookmarks b
    WHERE b.id IN (SELECT bookmark_id FROM post_keys_queue ORDER BY bookmark_id LIMIT ?) ORDER BY b.id`).all(limit) as KeyedRow[]

export const dequeueForKeys = (db: Db, ids: readonly number[]): void => {
  stmt(db, 'DELETE FROM post_keys_queue WHERE bookmark_id IN (SELECT value FROM json_each(?))').run(idList(ids))
}

/** Posts waiting for keys, counted up to `limit`. */
export const countQueuedForKeys = (db: Db, limit: number): number =>
  stmt(db, 'SELECT count(*) FROM (SELECT 1 FROM post_keys_queue LIMIT ?)').pluck().get(limit) as number

/** The texts of the given posts. */
export const textsByIds = (db: Db, ids: readonly number[]): Map<number, string> =>
  new Map((ids.length === 0 ? [] : stmt(db, 'SELECT id, text FROM bookmarks WHERE id IN (SELECT value FROM json_each(?))')
    .all(idList(ids)) as Array<{ id: number; text: string }>).map((r) => [r.id, r.text]))
