import { idList, libraryStamp, sqliteOf, stmt, type Db } from '../db.ts'
import type { BookmarkRow, ThreadColumns } from '../schema.ts'
import { countSql, filterKey, filterSql, ORDER_BY, type BookmarkFilter, type SortKey } from './bookmark-filter.ts'
import { countFlagged, memberStateVersion, STATE_FLAGS, type LinkScope, type StateFilter } from './member-state.ts'

/** A bookmarks row as the library reads it (JSON columns still as text), with its place in a thread. */
export type BookmarkRecord = Omit<BookmarkRow, 'rawJson' | 'langChecked'> & ThreadColumns

/** A row with the export file's own JSON (an export, a re-import). */
export type BookmarkWithRaw = BookmarkRecord & Pick<BookmarkRow, 'rawJson'>

/** A post's place in its thread (thread_parts, by primary key), null outside one. */
const THREAD_COLUMNS = `(SELECT t.root_id FROM thread_parts t WHERE t.bookmark_id = b.id) AS threadRootId,
  (SELECT t.position FROM thread_parts t WHERE t.bookmark_id = b.id) AS threadPosition,
  (SELECT t.size FROM thread_parts t WHERE t.bookmark_id = b.id) AS threadSize`

const BOOKMARK_COLUMNS = `b.id, b.post_id AS postId, b.text, b.author_handle AS authorHandle, b.author_name AS authorName,
  b.post_created_at AS postCreatedAt, b.created_at AS importedAt, b.updated_at AS updatedAt, b.source, b.lang,
  b.conversation_id AS conversationId, b.in_reply_to_post_id AS inReplyToPostId, b.urls, b.engagement, b.quoted,
  b.engagement_score AS engagementScore, b.media_count AS mediaCount, b.content_hash AS contentHash,
  ${THREAD_COLUMNS}`

const WITH_RAW_COLUMNS = `${BOOKMARK_COLUMNS}, b.raw_json AS rawJson`

/** About how many rows of the sort index a page may walk before collecting and sorting the matches is cheaper. */
const WALK_ROWS = 5000

/**
 * The ids of one page, in order. `matches` (the filter's count) and `all` (the library's) choose the
 * plan: a filter matching a large share of the library is best found by walking the sort order.
 */
export function pageBookmarkIds(db: Db, f: BookmarkFilter, sort: SortKey, limit: number, offset: number, share?: { matches: number; all: number }): number[] {
  const walk = share !== undefined && (offset + limit) * share.all <= WALK_ROWS * Math.max(1, share.matches)
  const { where, params } = filterSql(f, { walk })
  return stmt(db, `SELECT b.id FROM bookmarks b ${where} ORDER BY ${ORDER_BY[sort]} LIMIT ? OFFSET ?`)
    .pluck().all(...params, limit, offset) as number[]
}

const orders = new WeakMap<object, { stamp: string; at: number; bySort: Map<SortKey, Int32Array> }>()

/** How long an order is reused while a write transaction (an import) is open on the connection. */
const REUSE_WHILE_WRITING_MS = 1000

/**
 * Every post id in one sort order, cached until the library changes (a `q` page is cut from it). While
 * an import's transaction is open its slices move the stamp every few milliseconds, and each list with
 * `q` read the whole order again (25 ms at 30,000 posts, 50-60 ms of every second of bench/load.ts's
 * import): an order then serves for up to a second, as the `q` matches themselves (library/bookmarks.ts).
 */
export function orderedBookmarkIds(db: Db, sort: SortKey): Int32Array {
  const stamp = libraryStamp(db)
  const now = performance.now()
  let c = orders.get(sqliteOf(db))
  const fresh = c && (c.stamp === stamp || (sqliteOf(db).inTransaction && now - c.at < REUSE_WHILE_WRITING_MS))
  if (!c || !fresh) orders.set(sqliteOf(db), (c = { stamp, at: now, bySort: new Map() }))
  let ids = c.bySort.get(sort)
  if (!ids) {
    ids = Int32Array.from(stmt(db, `SELECT b.id FROM bookmarks b ORDER BY ${ORDER_BY[sort]}`).pluck().all() as number[])
    c.bySort.set(sort, ids)
  }
  return ids
}

const counts = new WeakMap<object, { stamp: string; byKey: Map<string, number> }>()

/** Matching rows; cached per filter until the library (or, filtered by state, that member's state) changes. */
export function countBookmarks(db: Db, f: BookmarkFilter): number {
  const stamp = libraryStamp(db)
  let c = counts.get(sqliteOf(db))
  if (!c || c.stamp !== stamp) counts.set(sqliteOf(db), (c = { stamp, byKey: new Map() }))
  const key = f.state ? `${filterKey(f)}@${memberStateVersion(db, f.state.userId)}` : filterKey(f)
  const hit = c.byKey.get(key)
  if (hit !== undefined) return hit
  if (f.state) {
    const n = countWithState(db, f, f.state)
    c.byKey.set(key, n)
    return n
  }
  const { sql, params } = countSql(f)
  const n = stmt(db, sql).pluck().get(...params) as number
  if (c.byKey.size > 500) c.byKey.clear()
  c.byKey.set(key, n)
  return n
}

/**
 * A flag a post must not have is counted by subtraction (posts − posts with it), so every query counts only
 * posts that have flags, collected from the flags' partial indexes, however many posts lack them.
 */
function countWithState(db: Db, f: BookmarkFilter, s: StateFilter): number {
  const without = STATE_FLAGS.find((k) => s[k] === false)
  if (without) {
    return countBookmarks(db, { ...f, state: { ...s, [without]: undefined } }) - countBookmarks(db, { ...f, state: { ...s, [without]: true } })
  }
  const rest: BookmarkFilter = { ...f, state: undefined }
  const flags = STATE_FLAGS.filter((k) => s[k] === true)
  if (flags.length === 0) return countBookmarks(db, rest)
  const others = Object.entries(rest).filter(([, v]) => v !== undefined && v !== false && v !== '')
  if (others.length === 0) return countFlagged(db, s.userId, flags)
  const scope = others.length === 1 ? linkScope(db, rest) : null
  if (scope) return countFlagged(db, s.userId, flags, scope)
  const { where, params } = filterSql(f)
  return stmt(db, `SELECT count(*) FROM bookmarks b ${where}`).pluck().get(...params) as number
}

/** A lone category or tag filter as its link table, or null (unknown names count nothing either way). */
function linkScope(db: Db, f: BookmarkFilter): LinkScope | null {
  const [table, column, lookup, name] = f.category !== undefined
    ? ['bookmark_categories', 'category_id', 'SELECT id FROM categories WHERE slug = ?', f.category] as const
    : f.tag !== undefined ? ['bookmark_tags', 'tag_id', 'SELECT id FROM tags WHERE name = ?', f.tag] as const : [null, null, null, null]
  if (!table) return null
  const id = stmt(db, lookup).pluck().get(name) as number | undefined
  return id === undefined ? null : { table, column, id, size: countBookmarks(db, f) }
}

/** Rows for the given ids, in the order given. */
export function bookmarksByIds(db: Db, ids: readonly number[]): BookmarkRecord[] {
  if (ids.length === 0) return []
  const rows = stmt(db, `SELECT ${BOOKMARK_COLUMNS} FROM bookmarks b WHERE b.id IN (SELECT value FROM json_each(?))`)
    .all(idList(ids)) as BookmarkRecord[]
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.map((id) => byId.get(id)).filter((r): r is BookmarkRecord => r !== undefined)
}

export function bookmarkById(db: Db, id: number): BookmarkWithRaw | null {
  return (stmt(db, `SELECT ${WITH_RAW_COLUMNS} FROM bookmarks b WHERE b.id = ?`).get(id) as
    BookmarkWithRaw | undefined) ?? null
}

export const bookmarkExists = (db: Db, id: number): boolean =>
  stmt(db, 'SELECT 1 FROM bookmarks WHERE id = ?').pluck().get(id) !== undefined

/** Which of `ids` exist. */
export const existingBookmarkIds = (db: Db, ids: readonly number[]): number[] =>
  stmt(db, 'SELECT id FROM bookmarks WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id').pluck().all(idList(ids)) as number[]

export const deleteBookmarks = (db: Db, ids: readonly number[]): number =>
  stmt(db, 'DELETE FROM bookmarks WHERE id IN (SELECT value FROM json_each(?))').run(idList(ids)).changes

/**
 * Streams matching rows (with raw JSON) in sort order, a batch at a time, so an export of the whole
 * library never holds more than one batch. Keyset paging keeps each batch query cheap.
 */
export function* iterateBookmarks(db: Db, f: BookmarkFilter, batch = 500): Generator<BookmarkWithRaw[]> {
  const { where, params } = filterSql(f)
  // a row value, not `a < ? OR (a = ? AND id < ?)`: SQLite seeks the date index with it instead of scanning from the top
  const cursorClause = `${where ? `${where} AND` : 'WHERE'} (b.post_created_at, b.id) < (?, ?)`
  const first = stmt(db, `SELECT ${WITH_RAW_COLUMNS} FROM bookmarks b ${where} ORDER BY ${ORDER_BY.newest} LIMIT ?`)
  const next = stmt(db, `SELECT ${WITH_RAW_COLUMNS} FROM bookmarks b ${cursorClause} ORDER BY ${ORDER_BY.newest} LIMIT ?`)
  let rows = first.all(...params, batch) as BookmarkWithRaw[]
  while (rows.length > 0) {
    yield rows
    if (rows.length < batch) return
    const last = rows[rows.length - 1]
    rows = next.all(...params, last.postCreatedAt, last.id, batch) as BookmarkWithRaw[]
  }
}

/** A post as the mind map names it. */
export type PostTitle = Pick<BookmarkRow, 'id' | 'text' | 'authorHandle'>

/** One page of a category's posts, newest first (the mind map's branches). */
export function newestInCategory(db: Db, categoryId: number, limit: number, offset = 0, share?: { matches: number; all: number }): PostTitle[] {
  // as pageBookmarkIds: a large category is found by walking the date order, a small one collected and sorted
  const walk = share !== undefined && (offset + limit) * share.all <= WALK_ROWS * Math.max(1, share.matches)
  return stmt(db, `SELECT b.id, b.text, b.author_handle AS authorHandle FROM bookmarks b
    WHERE ${walk ? 'EXISTS (SELECT 1 FROM bookmark_categories bc WHERE bc.bookmark_id = b.id AND bc.category_id = ?)'
      : 'b.id IN (SELECT bookmark_id FROM bookmark_categories WHERE category_id = ?)'}
    ORDER BY b.post_created_at DESC, b.id DESC LIMIT ? OFFSET ?`).all(categoryId, limit, offset) as PostTitle[]
}

/** Newest uncategorised posts. */
export function newestUncategorized(db: Db, limit: number, offset = 0): PostTitle[] {
  return stmt(db, `SELECT b.id, b.text, b.author_handle AS authorHandle FROM bookmarks b
    WHERE NOT EXISTS (SELECT 1 FROM bookmark_categories bc WHERE bc.bookmark_id = b.id)
    ORDER BY b.post_created_at DESC, b.id DESC LIMIT ? OFFSET ?`).all(limit, offset) as PostTitle[]
}

export const postIdsByIds = (db: Db, ids: readonly number[]): Map<number, string> =>
  new Map((ids.length === 0 ? [] : stmt(db, 'SELECT id, post_id AS postId FROM bookmarks WHERE id IN (SELECT value FROM json_each(?))')
    .all(idList(ids)) as { id: number; postId: string }[]).map((r) => [r.id, r.postId]))

export const bookmarkByPostId = (db: Db, postId: string): BookmarkWithRaw | null =>
  (stmt(db, `SELECT ${WITH_RAW_COLUMNS} FROM bookmarks b WHERE b.post_id = ?`).get(postId) as BookmarkWithRaw | undefined) ?? null

/** A thread's parts that match `f`, in reading order, as the export reads them. */
export function threadRecordsMatching(db: Db, rootId: number, f: BookmarkFilter): BookmarkWithRaw[] {
  const { where, params } = filterSql(f)
  return stmt(db, `SELECT ${WITH_RAW_COLUMNS} FROM bookmarks b JOIN thread_parts tp ON tp.bookmark_id = b.id
    ${where ? `${where} AND` : 'WHERE'} tp.root_id = ? ORDER BY tp.position`).all(...params, rootId) as BookmarkWithRaw[]
}
