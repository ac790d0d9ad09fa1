import { idList, stmt, type Db } from '../db.ts'
import type { KnowledgeRow } from '../schema.ts'

/** The knowledge row as the library reads it (JSON columns as text). */
export type KnowledgeRecord = KnowledgeRow

const COLUMNS = `bookmark_id AS bookmarkId, summary, action, sentiment, confidence, related_ids AS relatedIds, oss_report AS ossReport,
  entities, kind, provider, content_hash AS contentHash, analyzed_at AS analyzedAt`

export const knowledgeFor = (db: Db, bookmarkId: number): KnowledgeRecord | null =>
  (stmt(db, `SELECT ${COLUMNS} FROM knowledge WHERE bookmark_id = ?`).get(bookmarkId) as KnowledgeRecord | undefined) ?? null

export const knowledgeForBookmarks = (db: Db, ids: readonly number[]): KnowledgeRecord[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT ${COLUMNS} FROM knowledge WHERE bookmark_id IN (SELECT value FROM json_each(?))`).all(idList(ids)) as KnowledgeRecord[]

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
