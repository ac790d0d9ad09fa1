import { idList, stmt, type Db } from '../db.ts'
import type { BookmarkRow, CategoryRow, knowledge, KnowledgeRow, MediaRow } from '../schema.ts'

/**
 * What analysis learnt about posts (knowledge, tags, media analysis): what the pipeline reads and writes,
 * and what the library reads and re-imports.
 */

/** What the pipeline reads about one post (JSON columns parsed). */
export type PipelinePost = Pick<BookmarkRow, 'id' | 'postId' | 'text' | 'authorHandle' | 'authorName' | 'lang' | 'inReplyToPostId' | 'contentHash'> & {
  urls: Array<{ url: string; expandedUrl: string; displayUrl: string | null }>
  quoted: { text: string; authorHandle: string } | null
  media: PipelineMedia[]
}

export type PipelineMedia = Omit<MediaRow, 'bookmarkId' | 'position' | 'fetchedAt' | 'visualTags'> & { visualTags: string[] | null }

/**
 * Posts a job should analyse: never analysed, changed since, or analysed before the current local
 * sentence model (no vector of `vectorModel`), unless `force` takes them all.
 */
export function selectDueBookmarkIds(db: Db, { bookmarkIds, force, vectorModel, after = 0, limit = -1 }: {
  bookmarkIds?: readonly number[]; force?: boolean; vectorModel: string
  /** Only posts with a larger id, at most `limit` of them (-1: all): a page of the list. */
  after?: number; limit?: number
}): number[] {
  const scope = bookmarkIds ? 'AND b.id IN (SELECT value FROM json_each(@ids))' : ''
  const due = force ? '' : `AND (k.bookmark_id IS NULL OR k.content_hash IS NOT b.content_hash
    OR NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.bookmark_id = b.id AND e.model = @model))`
  const sql = `SELECT b.id FROM bookmarks b LEFT JOIN knowledge k ON k.bookmark_id = b.id WHERE b.id > @after ${scope} ${due} ORDER BY b.id LIMIT @limit`
  return stmt(db, sql).pluck().all({ model: vectorModel, after, limit, ...(bookmarkIds ? { ids: idList(bookmarkIds) } : {}) }) as number[]
}

/** Every analysed post, in id order. */
export const analysedBookmarkIds = (db: Db): number[] => stmt(db, 'SELECT bookmark_id FROM knowledge ORDER BY bookmark_id').pluck().all() as number[]

/** Analysed posts without a vector of `vectorModel`: a library analysed before that model, to upgrade. */
export const postsAnalysedWithoutVector = (db: Db, vectorModel: string): number[] =>
  stmt(db, `SELECT k.bookmark_id FROM knowledge k WHERE NOT EXISTS
    (SELECT 1 FROM embeddings e WHERE e.bookmark_id = k.bookmark_id AND e.model = ?) ORDER BY k.bookmark_id`).pluck().all(vectorModel) as number[]

const parse = <T>(v: string | null, fallback: T): T => {
  if (v == null) return fallback
  try {
    return JSON.parse(v) as T
  } catch {
    return fallback
  }
}

export function loadPipelinePosts(db: Db, ids: readonly number[]): PipelinePost[] {
  if (ids.length === 0) return []
  const rows = stmt(db, `SELECT id, post_id AS postId, text, author_handle AS authorHandle, author_name AS authorName, lang,
      in_reply_to_post_id AS inReplyToPostId, urls, quoted, content_hash AS contentHash
    FROM bookmarks WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`).all(idList(ids)) as Array<Record<string, unknown>>
  const media = stmt(db, `SELECT id, bookmark_id AS bookmarkId, type, url, thumbnail_url AS thumbnailUrl, video_url AS videoUrl,
      alt_text AS altText, width, height, duration_ms AS durationMs, cache_path AS cachePath, thumb_path AS thumbPath,
      ocr_text AS ocrText, visual_tags AS visualTags, description, fetch_error AS fetchError
    FROM media WHERE bookmark_id IN (SELECT value FROM json_each(?)) ORDER BY bookmark_id, position`).all(idList(ids)) as Array<Record<string, unknown>>
  const byPost = new Map<number, PipelineMedia[]>()
  for (const m of media) {
    const list = byPost.get(m.bookmarkId as number) ?? []
    list.push({ ...(m as unknown as PipelineMedia), visualTags: parse<string[] | null>(m.visualTags as string | null, null) })
    byPost.set(m.bookmarkId as number, list)
  }
  return rows.map((r) => ({
    ...(r as unknown as PipelinePost),
    urls: parse(r.urls as string, []),
    quoted: parse(r.quoted as string | null, null),
    media: byPost.get(r.id as number) ?? [],
  }))
}

export type KnowledgeWrite = Pick<typeof knowledge.$inferSelect, 'bookmarkId' | 'summary' | 'action' | 'sentiment' | 'confidence' | 'ossReport' |
  'entities' | 'kind' | 'analyzedAt'> & {
  provider: string
  contentHash: string
  /** Already normalised to the shared vocabulary. */
  tags: string[]
}

/**
 * Knowledge rows and their tags for a batch of posts; related ids are kept (set later by
 * categorization). Tags are looked up and linked a batch or a post at a time, not tag by tag. Caller
 * wraps the batch in one transaction.
 */
export function writeKnowledge(db: Db, batch: readonly KnowledgeWrite[]): void {
  if (batch.length === 0) return
  const ids = idList(batch.map((k) => k.bookmarkId))
  const current = new Map<number, Map<string, number>>()
  for (const r of stmt(db, `SELECT bt.bookmark_id AS b, bt.tag_id AS id, t.name FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id
      WHERE bt.bookmark_id IN (SELECT value FROM json_each(?))`).all(ids) as Array<{ b: number; id: number; name: string }>) {
    let m = current.get(r.b)
    if (!m) current.set(r.b, (m = new Map()))
    m.set(r.name, r.id)
  }
  const names = [...new Set(batch.flatMap((k) => k.tags))]
  const tagIds = new Map<string, number>()
  for (const r of stmt(db, 'SELECT id, name FROM tags WHERE name IN (SELECT value FROM json_each(?))').all(JSON.stringify(names)) as Array<{ id: number; name: string }>) {
    tagIds.set(r.name, r.id)
  }
  for (const name of names) if (!tagIds.has(name)) tagIds.set(name, Number(stmt(db, 'INSERT INTO tags (name) VALUES (?)').run(name).lastInsertRowid))

  for (const k of batch) {
    stmt(db, `INSERT INTO knowledge (bookmark_id, summary, action, sentiment, confidence, oss_report, entities, kind, provider, content_hash, analyzed_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (bookmark_id) DO UPDATE SET summary = excluded.summary, action = excluded.action,
      sentiment = excluded.sentiment, confidence = excluded.confidence, oss_report = excluded.oss_report, entities = excluded.entities, kind = excluded.kind,
      provider = excluded.provider, content_hash = excluded.content_hash, analyzed_at = excluded.analyzed_at`)
      .run(k.bookmarkId, k.summary, k.action, k.sentiment, k.confidence, k.ossReport == null ? null : JSON.stringify(k.ossReport),
        JSON.stringify(k.entities ?? null), k.kind, k.provider, k.contentHash, k.analyzedAt)
    const have = current.get(k.bookmarkId)
    const want = new Set(k.tags)
    const gone = have ? [...have].filter(([name]) => !want.has(name)).map(([, id]) => id) : []
    if (gone.length) stmt(db, 'DELETE FROM bookmark_tags WHERE bookmark_id = ? AND tag_id IN (SELECT value FROM json_each(?))').run(k.bookmarkId, idList(gone))
    const added = [...want].filter((name) => !have?.has(name)).map((name) => tagIds.get(name)!)
    if (added.length) stmt(db, 'INSERT OR IGNORE INTO bookmark_tags (bookmark_id, tag_id) SELECT ?, value FROM json_each(?)').run(k.bookmarkId, idList(added))
  }
}

/** Related post ids of a batch of posts. */
export const setRelatedIds = (db: Db, rows: ReadonlyArray<{ bookmarkId: number; relatedIds: readonly number[] }>): void => {
  if (rows.length === 0) return
  stmt(db, `UPDATE knowledge SET related_ids = json(r.value ->> 1) FROM json_each(?) r WHERE knowledge.bookmark_id = r.value ->> 0`)
    .run(JSON.stringify(rows.map((r) => [r.bookmarkId, r.relatedIds])))
}

/** A post's entities (JSON text) and tags (joined by U+001F): the shared-entity half of "related". */
export type RelatedKeys = { id: number; entities: KnowledgeRow['entities']; tags: string | null }

/** One page of every analysed post's RelatedKeys (bookmark_id > afterId), so a big load can yield between pages. */
export function relatedKeysPage(db: Db, afterId: number, limit: number): RelatedKeys[] {
  return stmt(db, `SELECT k.bookmark_id AS id, k.entities, (SELECT group_concat(t.name, char(31)) FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id
      WHERE bt.bookmark_id = k.bookmark_id) AS tags FROM knowledge k WHERE k.bookmark_id > ? ORDER BY k.bookmark_id LIMIT ?`).all(afterId, limit) as RelatedKeys[]
}

export type MediaAnalysisWrite = Pick<PipelineMedia, 'id' | 'cachePath' | 'thumbPath' | 'ocrText' | 'visualTags' | 'description' | 'fetchError'> &
  Pick<MediaRow, 'fetchedAt'>

export const writeMediaAnalysis = (db: Db, m: MediaAnalysisWrite): void => {
  stmt(db, `UPDATE media SET cache_path = ?, thumb_path = ?, visual_tags = ?, fetched_at = ?, fetch_error = ? WHERE id = ?`)
    .run(m.cachePath, m.thumbPath, m.visualTags ? JSON.stringify(m.visualTags) : null, m.fetchedAt, m.fetchError, m.id)
  // The text columns re-index the post for search (search_media_au, inline): written only when they change.
  stmt(db, 'UPDATE media SET ocr_text = ?, description = ? WHERE id = ? AND (ocr_text IS NOT ? OR description IS NOT ?)')
    .run(m.ocrText, m.description, m.id, m.ocrText, m.description)
}

type MediaCacheEntry = Pick<MediaRow, 'id' | 'cachePath' | 'thumbPath'>

export const mediaCacheEntry = (db: Db, id: number): MediaCacheEntry | null =>
  (stmt(db, 'SELECT id, cache_path AS cachePath, thumb_path AS thumbPath FROM media WHERE id = ?').get(id) as MediaCacheEntry | undefined) ?? null

export type PipelineCategory = Pick<CategoryRow, 'id' | 'slug' | 'name' | 'description'>

export const categoriesForPipeline = (db: Db): PipelineCategory[] =>
  stmt(db, 'SELECT id, slug, name, description FROM categories ORDER BY position, id').all() as PipelineCategory[]

/** Adds the starting categories when the library has none (INSERT OR IGNORE on the slug). */
export function seedCategoriesIfEmpty(db: Db, defaults: ReadonlyArray<{ name: string; slug: string; color: string; description: string }>, now: number): void {
  const n = stmt(db, 'SELECT count(*) FROM categories').pluck().get() as number
  if (n > 0) return
  defaults.forEach((c, i) => {
    stmt(db, 'INSERT OR IGNORE INTO categories (name, slug, color, description, position, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(c.name, c.slug, c.color, c.description, i, now)
  })
}

/** A person's category choices: labelled examples for the local classifier. */
export const userCategoryExamples = (db: Db, limit = 5000): Array<{ bookmarkId: number; text: string; slug: string }> =>
  stmt(db, `SELECT b.id AS bookmarkId, b.text, c.slug FROM bookmark_categories bc JOIN bookmarks b ON b.id = bc.bookmark_id
    JOIN categories c ON c.id = bc.category_id WHERE bc.assigned_by = 'user' ORDER BY bc.created_at DESC LIMIT ?`).all(limit) as
    Array<{ bookmarkId: number; text: string; slug: string }>

/** Per post: categories a person set (kept) and ones a person removed (never re-added). */
export function categoryLocks(db: Db, ids: readonly number[]): Map<number, { user: Set<number>; rejected: Set<number> }> {
  const out = new Map<number, { user: Set<number>; rejected: Set<number> }>()
  const get = (id: number) => {
    let v = out.get(id)
    if (!v) out.set(id, (v = { user: new Set(), rejected: new Set() }))
    return v
  }
  for (const r of stmt(db, `SELECT bookmark_id AS b, category_id AS c FROM bookmark_categories WHERE assigned_by = 'user'
      AND bookmark_id IN (SELECT value FROM json_each(?))`).all(idList(ids)) as Array<{ b: number; c: number }>) get(r.b).user.add(r.c)
  for (const r of stmt(db, `SELECT bookmark_id AS b, category_id AS c FROM category_rejections
      WHERE bookmark_id IN (SELECT value FROM json_each(?))`).all(idList(ids)) as Array<{ b: number; c: number }>) get(r.b).rejected.add(r.c)
  return out
}

/**
 * Replaces the pipeline's categories of a batch of posts. Rows a person set stay as they are;
 * rejected categories are skipped. Caller wraps the batch in one transaction.
 */
export function replacePipelineCategories(db: Db, rows: ReadonlyArray<{ bookmarkId: number; picks: ReadonlyArray<{ categoryId: number; confidence: number }> }>, now: number): void {
  if (rows.length === 0) return
  const existing = new Map<number, Map<number, number>>()
  for (const r of stmt(db, `SELECT bookmark_id AS b, category_id AS c, confidence FROM bookmark_categories WHERE assigned_by = 'pipeline'
      AND bookmark_id IN (SELECT value FROM json_each(?))`).all(idList(rows.map((r) => r.bookmarkId))) as Array<{ b: number; c: number; confidence: number }>) {
    let m = existing.get(r.b)
    if (!m) existing.set(r.b, (m = new Map()))
    m.set(r.c, r.confidence)
  }
  for (const { bookmarkId, picks } of rows) {
    const had = existing.get(bookmarkId)
    const keep = new Set(picks.map((p) => p.categoryId))
    if (had) {
      for (const c of had.keys()) if (!keep.has(c)) stmt(db, `DELETE FROM bookmark_categories WHERE bookmark_id = ? AND category_id = ? AND assigned_by = 'pipeline'`).run(bookmarkId, c)
      for (const p of picks) {
        if (had.has(p.categoryId) && had.get(p.categoryId) !== p.confidence) {
          stmt(db, `UPDATE bookmark_categories SET confidence = ? WHERE bookmark_id = ? AND category_id = ? AND assigned_by = 'pipeline'`).run(p.confidence, bookmarkId, p.categoryId)
        }
      }
    }
    const added = picks.filter((p) => !had?.has(p.categoryId))
    if (added.length === 0) continue
    stmt(db, `INSERT INTO bookmark_categories (bookmark_id, category_id, confidence, assigned_by, created_at)
      SELECT ?, p.value ->> 0, p.value ->> 1, 'pipeline', ? FROM json_each(?) p
      WHERE NOT EXISTS (SELECT 1 FROM category_rejections r WHERE r.bookmark_id = ? AND r.category_id = p.value ->> 0)
      ON CONFLICT DO NOTHING`).run(bookmarkId, now, JSON.stringify(added.map((p) => [p.categoryId, p.confidence])), bookmarkId)
  }
}

export const allTagNames = (db: Db): string[] => stmt(db, 'SELECT name FROM tags ORDER BY id').pluck().all() as string[]

/** Posts with at least one recorded problem in a job (fallbacks included). */
export const countJobProblemPosts = (db: Db, jobId: string): number =>
  stmt(db, 'SELECT count(DISTINCT bookmark_id) FROM job_errors WHERE job_id = ? AND bookmark_id IS NOT NULL').pluck().get(jobId) as number

/** The knowledge row as the library reads it (JSON columns as text). */
export type KnowledgeRecord = KnowledgeRow

const KNOWLEDGE_COLUMNS = `bookmark_id AS bookmarkId, summary, action, sentiment, confidence, related_ids AS relatedIds, oss_report AS ossReport,
  entities, kind, provider, content_hash AS contentHash, analyzed_at AS analyzedAt`

export const knowledgeFor = (db: Db, bookmarkId: number): KnowledgeRecord | null =>
  (stmt(db, `SELECT ${KNOWLEDGE_COLUMNS} FROM knowledge WHERE bookmark_id = ?`).get(bookmarkId) as KnowledgeRecord | undefined) ?? null

export const knowledgeForBookmarks = (db: Db, ids: readonly number[]): KnowledgeRecord[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT ${KNOWLEDGE_COLUMNS} FROM knowledge WHERE bookmark_id IN (SELECT value FROM json_each(?))`).all(idList(ids)) as KnowledgeRecord[]

/** Writes a knowledge row as given (used when an export is re-imported; the pipeline has its own writer). */
export function upsertKnowledge(db: Db, k: KnowledgeRecord): void {
  stmt(db, `INSERT INTO knowledge (bookmark_id, summary, action, sentiment, confidence, related_ids, oss_report, entities, kind, provider, content_hash, analyzed_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (bookmark_id) DO UPDATE SET summary = excluded.summary, action = excluded.action, sentiment = excluded.sentiment,
      confidence = excluded.confidence, related_ids = excluded.related_ids, oss_report = excluded.oss_report, entities = excluded.entities,
      kind = excluded.kind, provider = excluded.provider, content_hash = excluded.content_hash, analyzed_at = excluded.analyzed_at`)
    .run(k.bookmarkId, k.summary, k.action, k.sentiment, k.confidence, k.relatedIds, k.ossReport, k.entities, k.kind, k.provider, k.contentHash, k.analyzedAt)
}

export const countAnalyzed = (db: Db): number => stmt(db, 'SELECT count(*) FROM knowledge').pluck().get() as number

/** related_ids of the given bookmarks, for the mind map's "related" edges. */
export const relatedIdsFor = (db: Db, ids: readonly number[]): Pick<KnowledgeRow, 'bookmarkId' | 'relatedIds'>[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT bookmark_id AS bookmarkId, related_ids AS relatedIds FROM knowledge
    WHERE bookmark_id IN (SELECT value FROM json_each(?))`).all(idList(ids)) as Pick<KnowledgeRow, 'bookmarkId' | 'relatedIds'>[]

/** Tag names per bookmark for the given ids. */
export const tagsForBookmarks = (db: Db, ids: readonly number[]): { bookmarkId: number; tagId: number; name: string }[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT bt.bookmark_id AS bookmarkId, t.id AS tagId, t.name FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id
    WHERE bt.bookmark_id IN (SELECT value FROM json_each(?)) ORDER BY bt.bookmark_id, t.name`).all(idList(ids)) as
    { bookmarkId: number; tagId: number; name: string }[]

/** The id of a tag by name, creating it when new (names are stored as given: callers normalise). */
export function ensureTag(db: Db, name: string): number {
  const id = stmt(db, 'SELECT id FROM tags WHERE name = ?').pluck().get(name) as number | undefined
  if (id !== undefined) return id
  return Number(stmt(db, 'INSERT INTO tags (name) VALUES (?)').run(name).lastInsertRowid)
}

export const tagBookmark = (db: Db, bookmarkId: number, tagId: number): void => {
  stmt(db, 'INSERT OR IGNORE INTO bookmark_tags (bookmark_id, tag_id) VALUES (?, ?)').run(bookmarkId, tagId)
}
