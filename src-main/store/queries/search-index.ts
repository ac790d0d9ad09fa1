import { stmt, type Db } from '../connection.ts'
import { remembered } from '../remembered.ts'

// The word index's shape and stamp, apart from search.ts: the word memory's thread reads the index with
// these alone, without loading drizzle and the schema (0.8 s of a core in each new thread).

/** BM25 weights, in the column order of search_fts. */
export const SEARCH_COLUMNS = ['text', 'author', 'urls', 'entities', 'tags', 'ocr', 'summary', 'categories'] as const
export type SearchColumn = (typeof SEARCH_COLUMNS)[number]
export const SEARCH_WEIGHTS: Record<SearchColumn, number> = {
  text: 4, author: 3, urls: 1.5, entities: 2, tags: 2.5, ocr: 1.2, summary: 1.5, categories: 1.5,
}

/**
 * Moves whenever the word index is written (any post indexed, rewritten or deleted), and only then: FTS5's
 * structure record (%_data row 10), which every write transaction to the index rewrites. dataStamp also
 * moves for writes elsewhere (a session, a job), and a 100,000-post vocabulary costs 0.25-1.3 s to read.
 */
export const searchIndexStamp = (db: Db): string => remembered(db, 'searchIndexStamp', () =>
  (stmt(db, 'SELECT block FROM search_fts_data WHERE id = 10').pluck().get() as Buffer | undefined)?.toString('hex') ?? '')
