import { idList, stmt, type Db } from '../db.ts'
import type { bookmarks, threadParts as threadPartsTable } from '../schema.ts'

type Row = typeof bookmarks.$inferSelect
type Part = typeof threadPartsTable.$inferSelect

/** A reply to the same author's own post, both in the library: one edge of a thread. */
export interface SelfReply {
  id: number
  parentId: number
  postId: Row['postId']
  postCreatedAt: Row['postCreatedAt']
  parentPostId: Row['postId']
}

export type ThreadPlace = { id: Part['bookmarkId'] } & Pick<Part, 'rootId' | 'position' | 'size'>

type Reply = Omit<SelfReply, 'parentPostId'> & { parentPostId: string; author: string }

/**
 * Every self-reply in the library, from indexes alone: the partial reply index covers the reply's
 * columns, the post id index gives the parent's id, and the author index (lower(author_handle), kept
 * for the author filter) lists each replying author's posts, so a parent is the author's own when its id
 * is among them. Reading each parent's row for its author instead was most of the time at 100,000
 * posts. `unknown` is the handle of a post whose author the export did not name: two of them are not
 * known to be one person.
 */
export function selfReplies(db: Db, unknownHandle: string): SelfReply[] {
  const replies = stmt(db, `SELECT c.id, p.id AS parentId, c.post_id AS postId, c.post_created_at AS postCreatedAt,
      c.in_reply_to_post_id AS parentPostId, lower(c.author_handle) AS author
    FROM bookmarks c INDEXED BY bookmarks_reply_to_idx JOIN bookmarks p INDEXED BY bookmarks_post_id_idx ON p.post_id = c.in_reply_to_post_id
    WHERE c.in_reply_to_post_id IS NOT NULL AND c.id <> p.id AND lower(c.author_handle) <> ?`).all(unknownHandle) as Reply[]
  const postsBy = stmt(db, 'SELECT id FROM bookmarks INDEXED BY search_bookmarks_author_lower_idx WHERE lower(author_handle) = ?').pluck()
  const own = new Map<string, Set<number>>()
  for (const r of replies) if (!own.has(r.author)) own.set(r.author, new Set(postsBy.all(r.author) as number[]))
  return replies.filter((r) => own.get(r.author)!.has(r.parentId))
    .map(({ id, parentId, postId, postCreatedAt, parentPostId }) => ({ id, parentId, postId, postCreatedAt, parentPostId }))
}

/** Every post now marked as a thread part, with its stored place. */
export const storedThreadPlaces = (db: Db): ThreadPlace[] =>
  stmt(db, 'SELECT bookmark_id AS id, root_id AS rootId, position, size FROM thread_parts').all() as ThreadPlace[]

export function setThreadPlace(db: Db, p: ThreadPlace): void {
  stmt(db, `INSERT INTO thread_parts (bookmark_id, root_id, position, size) VALUES (?, ?, ?, ?)
    ON CONFLICT (bookmark_id) DO UPDATE SET root_id = excluded.root_id, position = excluded.position, size = excluded.size`).run(p.id, p.rootId, p.position, p.size)
}

export function clearThreadPlace(db: Db, id: number): void {
  stmt(db, 'DELETE FROM thread_parts WHERE bookmark_id = ?').run(id)
}

export type ThreadPart = Pick<Row, 'id' | 'text' | 'postCreatedAt'>

/** A thread's parts in reading order. */
export const threadParts = (db: Db, rootId: number): ThreadPart[] =>
  stmt(db, `SELECT b.id, b.text, b.post_created_at AS postCreatedAt FROM thread_parts t JOIN bookmarks b ON b.id = t.bookmark_id
    WHERE t.root_id = ? ORDER BY t.position`).all(rootId) as ThreadPart[]

/** Where each of `ids` sits in its thread (posts outside a thread are left out). */
export const threadPlacesOf = (db: Db, ids: readonly number[]): ThreadPlace[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT bookmark_id AS id, root_id AS rootId, position, size
    FROM thread_parts WHERE bookmark_id IN (SELECT value FROM json_each(?))`).all(idList(ids)) as ThreadPlace[]

/** The library ids of these post ids (those present). */
export const bookmarkIdsByPostIds = (db: Db, postIds: readonly string[]): Map<string, number> =>
  new Map((postIds.length === 0 ? [] : stmt(db, `SELECT post_id AS postId, id FROM bookmarks
    WHERE post_id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(postIds)) as { postId: string; id: number }[])
    .map((r) => [r.postId, r.id]))
