import { idList, stmt, type Db } from '../connection.ts'
import type { EmbeddingRow } from '../schema.ts'

// The vector queue (search_queue) and the statements that empty it, on connection.ts alone: the vector
// thread imports them (through store/thread/index.ts) without drizzle or the other queries.

export const searchQueuePeek = (db: Db, limit: number): number[] =>
  stmt(db, 'SELECT bookmark_id FROM search_queue LIMIT ?').pluck().all(limit) as number[]

export const searchQueueRemove = (db: Db, ids: readonly number[]): void => {
  stmt(db, 'DELETE FROM search_queue WHERE bookmark_id IN (SELECT value FROM json_each(?))').run(idList(ids))
}

/** The text a post's sentence vector is made from: its words, tags, summary and some image text. */
export const searchEmbeddingInputs = (db: Db, ids: readonly number[]): Array<{ id: number; input: string }> =>
  ids.length === 0 ? [] : stmt(db, `SELECT d.id, concat_ws(' ', d.text, d.tags, d.summary, substr(d.ocr, 1, 400)) AS input
    FROM search_documents d WHERE d.id IN (SELECT value FROM json_each(?))`).all(idList(ids)) as Array<{ id: number; input: string }>

export type SearchStoredEmbedding = Pick<EmbeddingRow, 'bookmarkId' | 'dim' | 'encoding' | 'vector' | 'contentHash'>

export const searchEmbeddingsFor = (db: Db, model: string, ids: readonly number[]): SearchStoredEmbedding[] =>
  ids.length === 0 ? [] : stmt(db, `SELECT bookmark_id AS bookmarkId, dim, encoding, vector, content_hash AS contentHash
    FROM embeddings WHERE model = ? AND bookmark_id IN (SELECT value FROM json_each(?))`).all(model, idList(ids)) as SearchStoredEmbedding[]

export const searchExistingIds = (db: Db, ids: readonly number[]): number[] =>
  stmt(db, 'SELECT id FROM bookmarks WHERE id IN (SELECT value FROM json_each(?))').pluck().all(idList(ids)) as number[]
