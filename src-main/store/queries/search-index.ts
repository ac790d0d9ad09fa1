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
 * Moves whenever what the word index holds changes (any post indexed, rewritten or deleted), and only
 * then: FTS5's structure record (%_data row 10), which every write transaction to the index rewrites,
 * or, while that is still the record a merge left, the record of the last write before the merge
 * (search_fts_merged, migration 0018): merging b-trees changes no answer. dataStamp also moves for
 * writes elsewhere (a session, a job), and a 100,000-post vocabulary costs 0.25-1.3 s to read.
 */
export const searchIndexStamp = (db: Db): string => remembered(db, 'searchIndexStamp', () =>
  (stmt(db, `SELECT coalesce((SELECT m.content FROM search_fts_merged m WHERE m.id = 1 AND m.structure = d.block), d.block)
    FROM search_fts_data d WHERE d.id = 10`).pluck().get() as Buffer | undefined)?.toString('hex') ?? '')

/**
 * One step of a merge of the word index, in one transaction with `pages` bound to the merge: first the
 * content the structure record stands for is noted (what it noted before, when the record is still the
 * one the last step left; else the record itself), then the merge, then the record it leaves.
 */
export const MERGE_WORDS_SQL = {
  before: `UPDATE search_fts_merged SET content = CASE WHEN structure = (SELECT block FROM search_fts_data WHERE id = 10) THEN content
    ELSE (SELECT block FROM search_fts_data WHERE id = 10) END WHERE id = 1`,
  merge: "INSERT INTO search_fts(search_fts, rank) VALUES('merge', ?)",
  after: 'UPDATE search_fts_merged SET structure = (SELECT block FROM search_fts_data WHERE id = 10) WHERE id = 1',
} as const
