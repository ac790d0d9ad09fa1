import { idList, stmt, type Db } from '../db.ts'
import type { MediaRow } from '../schema.ts'

/** A media row as the library reads it (what the pipeline learnt about it is read apart: mediaAnalysisFor). */
export type MediaRecord = Omit<MediaRow, 'ocrText' | 'visualTags' | 'description' | 'fetchedAt' | 'fetchError'>

const COLUMNS = `id, bookmark_id AS bookmarkId, position, type, url, thumbnail_url AS thumbnailUrl, video_url AS videoUrl,
  alt_text AS altText, width, height, duration_ms AS durationMs, cache_path AS cachePath, thumb_path AS thumbPath`

/** All media of the given bookmarks, in one query, ordered by bookmark and position. */
export const mediaForBookmarks = (db: Db, ids: readonly number[]): MediaRecord[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT ${COLUMNS} FROM media WHERE bookmark_id IN (SELECT value FROM json_each(?)) ORDER BY bookmark_id, position`)
    .all(idList(ids)) as MediaRecord[]

export type NewMedia = Pick<MediaRow, 'type' | 'url' | 'thumbnailUrl' | 'videoUrl' | 'altText' | 'width' | 'height' | 'durationMs'>

/**
 * Inserts one media row; one with alt text queues its post for the search index (the insert trigger
 * did this before migration 0007).
 */
export function insertMedia(db: Db, bookmarkId: number, position: number, m: NewMedia): void {
  insertMediaRow(db, bookmarkId, position, m)
  if (m.altText !== null && m.altText !== undefined) {
    stmt(db, 'INSERT INTO search_fts_queue(bookmark_id) VALUES (?) ON CONFLICT DO NOTHING').run(bookmarkId)
    stmt(db, 'INSERT INTO search_queue(bookmark_id) VALUES (?) ON CONFLICT DO NOTHING').run(bookmarkId)
  }
}

/** The row alone, for media of posts the same transaction inserts and queues (queueNewPostsForSearch). */
export const insertMediaRow = (db: Db, bookmarkId: number, position: number, m: NewMedia): void => {
  stmt(db, `INSERT INTO media (bookmark_id, position, type, url, thumbnail_url, video_url, alt_text, width, height, duration_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(bookmarkId, position, m.type, m.url, m.thumbnailUrl, m.videoUrl, m.altText, m.width, m.height, m.durationMs)
}

/**
 * Replaces a post's media with `list`, keeping rows (and what the pipeline cached for them) whose URL
 * is unchanged.
 */
export function replaceMedia(db: Db, bookmarkId: number, list: readonly NewMedia[]): void {
  const existing = stmt(db, 'SELECT id, url FROM media WHERE bookmark_id = ?').all(bookmarkId) as { id: number; url: string }[]
  const byUrl = new Map(existing.map((r) => [r.url, r.id]))
  const kept = new Set<number>()
  list.forEach((m, position) => {
    const id = byUrl.get(m.url)
    if (id !== undefined && !kept.has(id)) {
      kept.add(id)
      stmt(db, `UPDATE media SET position = ?, type = ?, thumbnail_url = ?, video_url = ?, alt_text = ?, width = ?, height = ?,
        duration_ms = ? WHERE id = ?`)
        .run(position, m.type, m.thumbnailUrl, m.videoUrl, m.altText, m.width, m.height, m.durationMs, id)
    } else insertMedia(db, bookmarkId, position, m)
  })
  for (const r of existing) if (!kept.has(r.id)) stmt(db, 'DELETE FROM media WHERE id = ?').run(r.id)
}

export const countMedia = (db: Db): number => stmt(db, 'SELECT count(*) FROM media').pluck().get() as number

export const mediaCountsByType = (db: Db): { type: string; count: number }[] =>
  stmt(db, 'SELECT type, count(*) AS count FROM media GROUP BY type ORDER BY count DESC').all() as { type: string; count: number }[]

/** Fills what analysis learnt about one media item, where nothing is known yet (a Sheaf re-import). */
export function fillMediaAnalysis(db: Db, bookmarkId: number, position: number, a: Omit<MediaAnalysis, 'bookmarkId' | 'position'>): void {
  stmt(db, `UPDATE media SET ocr_text = coalesce(ocr_text, ?), visual_tags = coalesce(visual_tags, ?), description = coalesce(description, ?)
    WHERE bookmark_id = ? AND position = ?`).run(a.ocrText, a.visualTags, a.description, bookmarkId, position)
}

export type MediaAnalysis = Pick<MediaRow, 'bookmarkId' | 'position' | 'ocrText' | 'visualTags' | 'description'>

export const mediaAnalysisFor = (db: Db, ids: readonly number[]): MediaAnalysis[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT bookmark_id AS bookmarkId, position, ocr_text AS ocrText, visual_tags AS visualTags, description
    FROM media WHERE bookmark_id IN (SELECT value FROM json_each(?)) ORDER BY bookmark_id, position`).all(idList(ids)) as MediaAnalysis[]
