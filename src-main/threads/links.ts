import type { LinkedPost, Thread } from '../../src-shared/schemas/bookmarks.ts'
import { bookmarkIdsByPostIds, bookmarksByIds, threadParts, type BookmarkRecord, type Db } from '../store/index.ts'

const iso = (ms: number): string => new Date(ms).toISOString()

/** The post's thread in reading order, or null when it is not part of one. */
export function threadOf(db: Db, post: Pick<BookmarkRecord, 'threadRootId' | 'threadPosition'>): Thread | null {
  if (post.threadRootId === null || post.threadPosition === null) return null
  const parts = threadParts(db, post.threadRootId)
  if (parts.length < 2) return null
  return {
    rootId: post.threadRootId,
    position: post.threadPosition,
    posts: parts.map((p) => ({ id: p.id, text: p.text, postCreatedAt: iso(p.postCreatedAt) })),
  }
}

const PREVIEW_CHARS = 200

/** The saved posts with these post ids, as links (null where a post is not in the library). */
export function linkedPosts(db: Db, postIds: ReadonlyArray<string | null>): Array<LinkedPost | null> {
  const wanted = postIds.filter((p): p is string => p !== null)
  const ids = bookmarkIdsByPostIds(db, wanted)
  const rows = new Map(bookmarksByIds(db, [...ids.values()]).map((r) => [r.postId, r]))
  return postIds.map((p) => {
    const r = p === null ? undefined : rows.get(p)
    return r ? { id: r.id, postId: r.postId, authorHandle: r.authorHandle, text: [...r.text].slice(0, PREVIEW_CHARS).join('') } : null
  })
}
