import { idList, libraryStamp, sqliteOf, stmt, transaction, type Db } from '../db.ts'
import { maintainInBackground } from '../maintenance.ts'
import { remembered } from '../remembered.ts'
import type { BookmarkRow, CategoryRow, MediaRow, ThreadColumns } from '../schema.ts'
import type { SearchStoredEmbedding } from './vector-queue.ts'
import { filterClauses } from './bookmark-filter.ts'
import { MERGE_WORDS_SQL, SEARCH_COLUMNS, SEARCH_WEIGHTS } from './search-index.ts'

/**
 * Queries behind src-main/search. The FTS5 table `search_fts` (drizzle/0001_search_fts5.sql) is kept
 * current by triggers; these functions only read it, re-derive rows on request and manage the
 * embedding queue and vectors.
 */

const BM25 = `bm25(search_fts, ${SEARCH_COLUMNS.map((c) => SEARCH_WEIGHTS[c]).join(', ')})`

/** Search's own words for its filters, translated into the one BookmarkFilter by searchFilterSql. */
export interface SearchFilter {
  author?: string
  categoryId?: number
  has?: ReadonlyArray<'image' | 'video' | 'link'>
  /** Epoch ms, inclusive. */
  after?: number
  /** Epoch ms, exclusive. */
  before?: number
  /** FTS5 expressions every result must match (quoted phrases). */
  mustMatch?: string[]
  /** FTS5 expressions no result may match (minus words). */
  mustNotMatch?: string[]
  /** ISO 639-1 code (`lang:de`, "posts in German"). */
  lang?: string
}

export const hasSearchFilter = (f: SearchFilter): boolean =>
  f.author !== undefined || f.categoryId !== undefined || (f.has?.length ?? 0) > 0 || f.after !== undefined ||
  f.before !== undefined || (f.mustMatch?.length ?? 0) > 0 || (f.mustNotMatch?.length ?? 0) > 0 || f.lang !== undefined

/** The filter as SQL over the alias `b` (bookmarks); times are whole milliseconds, so `< before` is `<= before - 1`. */
const searchFilterSql = (f: SearchFilter): { clauses: string[]; params: unknown[] } => filterClauses({
  author: f.author, categoryId: f.categoryId, lang: f.lang, mustMatch: f.mustMatch, mustNotMatch: f.mustNotMatch,
  has: f.has?.map((h) => (h === 'image' ? 'photo' : h)), from: f.after, to: f.before === undefined ? undefined : f.before - 1,
})

/**
 * Posts looked up by id to test a filter: through bookmarks_filter_idx (id, post_created_at, media_count,
 * lang), which holds what dates, media and language ask for in ~3 MB the page cache keeps, where each
 * ~2.5 KB row read a page of its own (400 random posts against a date: 1.2 → 0.3 ms of CPU). Named, since
 * the planner keeps to the rows until ANALYZE has measured it.
 */
const BY_ID = 'bookmarks b INDEXED BY bookmarks_filter_idx'

/** With a filter, the newest this many times `scoreCap` matches are walked at most to find `scoreCap` that pass it. */
export const FILTER_WALK = 4

/**
 * Best BM25 matches of an FTS5 expression that pass the filter; score is BM25 negated (higher is
 * better). BM25 costs a lookup per matching row, so only the newest `scoreCap` matches are scored:
 * FTS5 walks its doclist newest first and stops there (a `rowid >=` bound found by an OFFSET first
 * cost twice as much at 100,000 posts). With a filter, the walk stops after the newest
 * FILTER_WALK x `scoreCap` matches, so a filter that few posts pass cannot make it read every match.
 * `passing`: the filter's posts, already in memory; the same walk then tests them in JS (lexicalAmong).
 */
export function searchLexical(db: Db, words: string, f: SearchFilter, limit: number, scoreCap = Infinity, passing?: PostTest): Array<{ id: number; score: number }> {
  const { match, rest } = withoutMinusWords(words, f)
  const { clauses, params } = searchFilterSql(rest)
  const cap = Number.isFinite(scoreCap) ? scoreCap : -1
  if (clauses.length > 0 && passing) return lexicalAmong(db, match, passing, limit, cap)
  if (clauses.length === 0) {
    return stmt(db, `SELECT id, score FROM (SELECT rowid AS id, -${BM25} AS score FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT ?)
      ORDER BY score DESC LIMIT ?`).all(match, cap, limit) as Array<{ id: number; score: number }>
  }
  const from = cap < 0 ? 0 : (stmt(db, 'SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?')
    .pluck().get(match, FILTER_WALK * cap - 1) as number | undefined) ?? 0
  // BM25 in the select: computed only for rows that pass the filter.
  return stmt(db, `SELECT id, score FROM (SELECT search_fts.rowid AS id, -${BM25} AS score FROM search_fts JOIN ${BY_ID} ON b.id = search_fts.rowid
    WHERE search_fts MATCH ? AND search_fts.rowid >= ? AND ${clauses.join(' AND ')} ORDER BY search_fts.rowid DESC LIMIT ?) ORDER BY score DESC LIMIT ?`)
    .all(match, from, ...params, cap, limit) as Array<{ id: number; score: number }>
}

/** Whether a post passes a filter, from the filter's posts kept in memory (search/filter-sets.ts, built by searchFilteredIds). */
export interface PostTest {
  has(id: number): boolean
}

/**
 * searchLexical's walk with the filter's posts already in memory: the newest FILTER_WALK x `cap` matches'
 * ids alone (no join to the posts, no media probe), the newest `cap` of them that pass kept here, and
 * BM25 computed for those (`+rowid`: a filter on the walk, not an equality FTS5 would look up one id at a time;
 * the LIMIT keeps the subquery whole, so equal scores come out in searchLexical's order, newest first).
 */
function lexicalAmong(db: Db, match: string, passing: PostTest, limit: number, cap: number): Array<{ id: number; score: number }> {
  const walked = stmt(db, 'SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT ?').pluck()
    .all(match, cap < 0 ? -1 : FILTER_WALK * cap) as number[]
  const kept: number[] = []
  for (const id of walked) if (passing.has(id) && kept.push(id) === cap) break
  if (kept.length === 0) return []
  return stmt(db, `SELECT id, score FROM (SELECT rowid AS id, -${BM25} AS score FROM search_fts WHERE search_fts MATCH ? AND rowid >= ?
    AND +rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid DESC LIMIT ?) ORDER BY score DESC LIMIT ?`)
    .all(match, kept[kept.length - 1], idList(kept), kept.length, limit) as Array<{ id: number; score: number }>
}

/**
 * Minus words as FTS5's NOT in the expression (their BM25 is 0 in every row it keeps: the scores stay
 * the same), not as the filter's `NOT IN` their matches: that read every post a common word is in
 * (33,000 for "benchmarks" at 100,000 posts, 4-5 ms a search) into a table first.
 */
function withoutMinusWords(match: string, f: SearchFilter): { match: string; rest: SearchFilter } {
  const not = f.mustNotMatch ?? []
  return not.length === 0 ? { match, rest: f } : { match: `(${match})${not.map((m) => ` NOT ${m}`).join('')}`, rest: { ...f, mustNotMatch: [] } }
}

/** How many posts match, counting no further than `upTo` (cheap: no scoring). */
export const searchMatchCount = (db: Db, match: string, upTo: number): number =>
  stmt(db, 'SELECT count(*) FROM (SELECT 1 FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT ?)').pluck().get(match, upTo) as number

/**
 * What the explanations read of a post (SearchDocument), from the live tables (the search_documents view).
 * search_docs keeps this for every post the word index holds, written with its index row; the view is read
 * for posts still waiting in search_fts_queue.
 */
const DOCUMENT_COLUMNS = `d.id, d.text, d.author, d.urls, d.ocr, d.summary,
      (SELECT group_concat(tg.name, '|') FROM bookmark_tags bt JOIN tags tg ON tg.id = bt.tag_id WHERE bt.bookmark_id = d.id) AS tags,
      (SELECT group_concat(c.name, '|') FROM bookmark_categories bc JOIN categories c ON c.id = bc.category_id WHERE bc.bookmark_id = d.id) AS categories,
      (SELECT k.entities FROM knowledge k WHERE k.bookmark_id = d.id) AS entitiesJson
    FROM search_documents d`
const WRITE_DOCUMENTS = `INSERT OR REPLACE INTO search_docs(id, text, author, urls, ocr, summary, tags, categories, entities_json)
    SELECT ${DOCUMENT_COLUMNS} WHERE d.id IN (SELECT value FROM json_each(?))`

/** A post's word-index row and search_docs row, written again from the live tables (the ids as `?`). */
const WRITE_INDEX_ROWS = [
  'DELETE FROM search_fts WHERE rowid IN (SELECT value FROM json_each(?))',
  `INSERT INTO search_fts(rowid, text, author, urls, entities, tags, ocr, summary, categories)
    SELECT id, text, author, urls, entities, tags, ocr, summary, categories FROM search_documents
    WHERE id IN (SELECT value FROM json_each(?))`,
  WRITE_DOCUMENTS,
] as const

/** Moves up to `?` posts from search_fts_queue into the word index and search_docs, one transaction (also run by the maintenance thread). */
export const INDEX_WORDS_SQL = {
  pick: 'SELECT bookmark_id FROM search_fts_queue LIMIT ?',
  steps: [...WRITE_INDEX_ROWS, 'DELETE FROM search_fts_queue WHERE bookmark_id IN (SELECT value FROM json_each(?))'],
} as const

export function searchIndexQueued(db: Db, limit: number): number {
  const ids = stmt(db, INDEX_WORDS_SQL.pick).pluck().all(limit) as number[]
  if (ids.length === 0) return 0
  const list = idList(ids)
  transaction(db, () => {
    for (const sql of INDEX_WORDS_SQL.steps) stmt(db, sql).run(list)
  })
  return ids.length
}

/**
 * Empties search_fts_queue on the database's maintenance thread (its own connection and core), so a
 * large import's posts are searchable by word in seconds without taking the HTTP thread. False where
 * there is no such thread (an in-memory database): the caller indexes in slices itself.
 */
export const searchIndexInBackground = (db: Db, onDone: () => void): boolean =>
  maintainInBackground(sqliteOf(db), { task: 'index-words', sql: INDEX_WORDS_SQL }, onDone)

/** Leaf pages the word index's 'merge' writes per step on the maintenance thread (~15 ms of the write lock at 100,000 posts). */
const MERGE_PAGES = 64

/**
 * The word index's b-trees (FTS5 segments), each as its count of leaf pages, largest first (from
 * FTS5's own %_idx table: a row per leaf page that starts a term). Every write transaction adds a
 * small one and FTS5 merges them only part of the way: after the pipeline had rewritten each of
 * 100,000 posts a few times the index was 13 b-trees, and a word's doclist, read in each of them,
 * cost BM25 and the match counts 5-10x what one b-tree costs.
 */
export const searchIndexSegments = (db: Db): number[] =>
  stmt(db, 'SELECT count(*) FROM search_fts_idx GROUP BY segid ORDER BY 1 DESC').pluck().all() as number[]

/** Merges the word index into one b-tree on the maintenance thread, in steps; false where there is no such thread. */
export const searchMergeInBackground = (db: Db, onDone: () => void): boolean =>
  maintainInBackground(sqliteOf(db), { task: 'merge-words', sql: MERGE_WORDS_SQL, pages: MERGE_PAGES }, onDone)

export const searchFtsQueueSize = (db: Db): number => stmt(db, 'SELECT count(*) FROM search_fts_queue').pluck().get() as number

/** Posts waiting for the word index and for their vectors, each counted no further than `upTo` (cheap while a backlog is long). */
export const searchBacklog = (db: Db, upTo: number): { words: number; vectors: number } =>
  stmt(db, `SELECT (SELECT count(*) FROM (SELECT 1 FROM search_fts_queue LIMIT ?)) AS words,
    (SELECT count(*) FROM (SELECT 1 FROM search_queue LIMIT ?)) AS vectors`).get(upTo, upTo) as { words: number; vectors: number }

/**
 * Ids passing the filter (for restricting the semantic half), at most `limit` of them, by id. Quoted
 * phrases with no author or category to start from are walked in the word index itself, which stops at
 * `limit`: `IN` their matches read every one first (5,800 posts for "context window" at 100,000).
 */
export function searchFilteredIds(db: Db, f: SearchFilter, limit = -1): number[] {
  const phrases = f.mustMatch ?? []
  if (phrases.length > 0 && f.author === undefined && f.categoryId === undefined) {
    const { match, rest } = withoutMinusWords(phrases.join(' AND '), { ...f, mustMatch: [] })
    const { clauses, params } = searchFilterSql(rest)
    // Phrases alone: the word index's ids are the posts' (a post's row leaves it in the delete's own
    // transaction, search_bookmarks_ad), so no join to the posts: 2,001 matches 0.59 → 0.19 ms.
    if (clauses.length === 0) return stmt(db, 'SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid LIMIT ?').pluck().all(match, limit) as number[]
    return stmt(db, `SELECT b.id FROM search_fts JOIN ${BY_ID} ON b.id = search_fts.rowid WHERE search_fts MATCH ? ${clauses.map((c) => `AND ${c}`).join(' ')}
      ORDER BY search_fts.rowid LIMIT ?`).pluck().all(match, ...params, limit) as number[]
  }
  const { clauses, params } = searchFilterSql(f)
  return stmt(db, `SELECT b.id FROM bookmarks b ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''} LIMIT ?`)
    .pluck().all(...params, limit) as number[]
}

/** Which of `ids` hold a match (no scoring; costs about one pass over the match's postings). */
export const searchMatchingAmong = (db: Db, match: string, ids: readonly number[]): number[] =>
  ids.length === 0 ? [] : stmt(db, 'SELECT value FROM json_each(?) WHERE value IN (SELECT rowid FROM search_fts WHERE search_fts MATCH ?)')
    .pluck().all(idList(ids), match) as number[]

const postCounts = new WeakMap<object, { stamp: string; n: number }>()

/** How many posts the library holds; counted again only when posts were added or removed (a count of 100,000 rows is not free). */
export function searchPostCount(db: Db): number {
  const stamp = libraryStamp(db)
  const c = postCounts.get(sqliteOf(db))
  if (c?.stamp === stamp) return c.n
  const n = stmt(db, 'SELECT count(*) FROM bookmarks').pluck().get() as number
  postCounts.set(sqliteOf(db), { stamp, n })
  return n
}

/**
 * Which of `ids` pass the filter. A minus word is looked up in the word index for each id left (~4 µs
 * an id), not read whole: `NOT IN` its matches read 33,000 posts for "benchmarks" at 100,000 (4-5 ms).
 */
export function searchFilterIds(db: Db, f: SearchFilter, ids: readonly number[]): number[] {
  const { clauses, params } = searchFilterSql({ ...f, mustNotMatch: [] })
  let pass = clauses.length === 0 ? [...ids]
    : stmt(db, `SELECT b.id FROM ${BY_ID} WHERE b.id IN (SELECT value FROM json_each(?)) AND ${clauses.join(' AND ')}`).pluck().all(idList(ids), ...params) as number[]
  for (const m of f.mustNotMatch ?? []) {
    if (pass.length === 0) break
    const holding = new Set(stmt(db, 'SELECT rowid FROM search_fts WHERE search_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))').pluck().all(m, idList(pass)))
    pass = pass.filter((id) => !holding.has(id))
  }
  return pass
}

/** Newest posts passing the filter: the answer to a query that is only filters. */
export function searchNewest(db: Db, f: SearchFilter, limit: number): number[] {
  const { clauses, params } = searchFilterSql(f)
  return stmt(db, `SELECT b.id FROM bookmarks b ${clauses.length ? `WHERE ${clauses.join(' AND ')}` : ''}
    ORDER BY b.post_created_at DESC, b.id DESC LIMIT ?`).pluck().all(...params, limit) as number[]
}

export const searchHasMatch = (db: Db, match: string): boolean =>
  stmt(db, 'SELECT 1 FROM search_fts WHERE search_fts MATCH ? LIMIT 1').pluck().get(match) !== undefined

/** Every indexed term (porter stems) with the number of posts holding it. */
export const searchVocabulary = (db: Db): Array<{ term: string; doc: number }> =>
  stmt(db, 'SELECT term, doc FROM search_fts_vocab').all() as Array<{ term: string; doc: number }>

/** What each post contributes to each column, for explaining a match. */
export interface SearchDocument {
  id: number
  text: string
  author: string
  urls: string | null
  tags: string | null
  ocr: string | null
  summary: string | null
  categories: string | null
  /** knowledge.entities as stored (JSON text). */
  entitiesJson: string | null
}

/**
 * The posts' documents: from search_docs, one compact row each (~300 bytes against the post's ~2 KB row
 * plus its media and knowledge rows: 30 random posts cost 0.16 ms of CPU against 0.50 at 100,000 posts),
 * and from the live tables for posts waiting for the word index (new or changed since it last read them).
 */
export function searchDocuments(db: Db, ids: readonly number[]): SearchDocument[] {
  if (ids.length === 0) return []
  const list = idList(ids)
  const kept = stmt(db, `SELECT id, text, author, urls, ocr, summary, tags, categories, entities_json AS entitiesJson FROM search_docs
    WHERE id IN (SELECT value FROM json_each(?)) AND id NOT IN (SELECT bookmark_id FROM search_fts_queue)`).all(list) as SearchDocument[]
  if (kept.length === ids.length) return kept
  const have = new Set(kept.map((d) => d.id))
  const rest = ids.filter((id) => !have.has(id))
  return kept.concat(stmt(db, `SELECT ${DOCUMENT_COLUMNS} WHERE d.id IN (SELECT value FROM json_each(?))`).all(idList(rest)) as SearchDocument[])
}

/**
 * Which of these posts have an image (a photo) or a video (an animated GIF counts), read only for a
 * query whose words ask for one: most posts' media rows are not in the page cache.
 */
export const searchMediaKinds = (db: Db, ids: readonly number[]): Array<{ id: number; kind: 'image' | 'video' }> =>
  ids.length === 0 ? [] : stmt(db, `SELECT DISTINCT bookmark_id AS id, CASE type WHEN 'photo' THEN 'image' ELSE 'video' END AS kind FROM media
    WHERE bookmark_id IN (SELECT value FROM json_each(?)) AND type IN ('photo', 'video', 'animated_gif')`).all(idList(ids)) as Array<{ id: number; kind: 'image' | 'video' }>

/** Re-derives the FTS rows of these posts from the live tables (the triggers normally do this). */
export function searchReindexRows(db: Db, ids: readonly number[]): void {
  if (ids.length === 0) return
  const list = idList(ids)
  for (const sql of WRITE_INDEX_ROWS) stmt(db, sql).run(list)
  stmt(db, 'INSERT OR IGNORE INTO search_queue(bookmark_id) SELECT value FROM json_each(?)').run(list)
}

// --- the embedding queue and vectors -------------------------------------------------------------

export const searchQueueSize = (db: Db): number => stmt(db, 'SELECT count(*) FROM search_queue').pluck().get() as number

/** The count of vector writes and removals (embedding_version): when it moves, an index has something to read. Read ~3x a search: remembered. */
export const searchEmbeddingVersion = (db: Db): number =>
  remembered(db, 'embeddingVersion', () => stmt(db, 'SELECT n FROM embedding_version WHERE id = 1').pluck().get() as number)

/**
 * Up to `limit` vectors of one model written after `after` (a seq, then a rowid within it: existing
 * libraries' vectors share seq 0) and up to seq `to`, in that order, so a load reads in bounded slices.
 */
export const searchEmbeddingsChanged = (db: Db, model: string, after: { seq: number; row: number }, to: number, limit: number): Array<SearchStoredEmbedding & { seq: number; row: number }> =>
  stmt(db, `SELECT bookmark_id AS bookmarkId, dim, encoding, vector, content_hash AS contentHash, seq, rowid AS row FROM embeddings
    WHERE model = ? AND (seq, rowid) > (?, ?) AND seq <= ? ORDER BY seq, rowid LIMIT ?`)
    .all(model, after.seq, after.row, to, limit) as Array<SearchStoredEmbedding & { seq: number; row: number }>

/** Posts whose vector of this model was removed after seq `after` and up to `to`. */
export const searchEmbeddingsRemoved = (db: Db, model: string, after: number, to: number): number[] =>
  stmt(db, 'SELECT bookmark_id FROM embedding_removals WHERE model = ? AND seq > ? AND seq <= ?').pluck().all(model, after, to) as number[]

// --- categories and result rows -------------------------------------------------------------------

/** A category by slug, or by name ignoring case, or by the slug of what was typed. */
export function categoryForSearch(db: Db, typed: string): { id: number; slug: string; name: string } | null {
  const slug = typed.trim().toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '')
  return (stmt(db, `SELECT id, slug, name FROM categories WHERE slug = ? OR lower(name) = lower(?) OR slug = ?
    ORDER BY slug = ? DESC LIMIT 1`).get(typed, typed.trim(), slug, typed) as { id: number; slug: string; name: string } | undefined) ?? null
}

export type SearchHitRow = Pick<BookmarkRow & ThreadColumns, 'id' | 'postId' | 'text' | 'authorHandle' | 'authorName' | 'postCreatedAt' | 'importedAt' |
  'source' | 'urls' | 'engagement' | 'lang' | 'threadSize' | 'threadPosition'>

export const searchHitRows = (db: Db, ids: readonly number[]): SearchHitRow[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT b.id, b.post_id AS postId, b.text, b.author_handle AS authorHandle,
    b.author_name AS authorName, b.post_created_at AS postCreatedAt, b.created_at AS importedAt, b.source, b.urls, b.engagement, b.lang,
    t.size AS threadSize, t.position AS threadPosition
    FROM bookmarks b LEFT JOIN thread_parts t ON t.bookmark_id = b.id WHERE b.id IN (SELECT value FROM json_each(?))`).all(idList(ids)) as SearchHitRow[]

export type SearchHitMedia = Pick<MediaRow, 'bookmarkId' | 'id' | 'type' | 'url' | 'thumbnailUrl' | 'videoUrl' | 'altText' | 'cachePath'>

export const searchHitMedia = (db: Db, ids: readonly number[]): SearchHitMedia[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT bookmark_id AS bookmarkId, id, type, url, thumbnail_url AS thumbnailUrl,
    video_url AS videoUrl, alt_text AS altText, cache_path AS cachePath FROM media
    WHERE bookmark_id IN (SELECT value FROM json_each(?)) ORDER BY bookmark_id, position`).all(idList(ids)) as SearchHitMedia[]

/**
 * Each hit's categories, read from the hits (CROSS JOIN keeps that order): with `bc.bookmark_id IN (…)`
 * SQLite walked every category and probed each hit in it (0.11 against 0.04 ms for 20 hits and 10 categories).
 */
export const searchHitCategories = (db: Db, ids: readonly number[]) =>
  ids.length === 0 ? [] : stmt(db, `SELECT bc.bookmark_id AS bookmarkId, c.name, c.slug, c.color FROM json_each(?) j
    CROSS JOIN bookmark_categories bc ON bc.bookmark_id = j.value JOIN categories c ON c.id = bc.category_id
    ORDER BY c.position, c.name`).all(idList(ids)) as Array<{ bookmarkId: number } & Pick<CategoryRow, 'name' | 'slug' | 'color'>>

/** Prefix-as-you-type: the best BM25 matches among the newest `window` matching posts, titles only. */
export function searchQuick(db: Db, match: string, limit: number, window = 100): Array<{ id: number; text: string; authorHandle: string; authorName: string }> {
  const from = (stmt(db, 'SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?')
    .pluck().get(match, window - 1) as number | undefined) ?? 0
  return stmt(db, `SELECT b.id, substr(b.text, 1, 300) AS text, b.author_handle AS authorHandle, b.author_name AS authorName
    FROM (SELECT rowid AS id, ${BM25} AS r FROM search_fts WHERE search_fts MATCH ? AND rowid >= ? ORDER BY r LIMIT ?) f
    JOIN bookmarks b ON b.id = f.id ORDER BY f.r`).all(match, from, limit) as Array<{ id: number; text: string; authorHandle: string; authorName: string }>
}

/** Posts with no vector at all for `model`. */
export const searchIdsWithoutEmbedding = (db: Db, model: string): number[] =>
  stmt(db, 'SELECT b.id FROM bookmarks b WHERE NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.bookmark_id = b.id AND e.model = ?)')
    .pluck().all(model) as number[]
