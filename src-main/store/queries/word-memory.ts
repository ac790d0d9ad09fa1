import Database from 'better-sqlite3'
import { readTransaction, sqliteOf, stmt, type Db } from '../connection.ts'
import { SEARCH_COLUMNS, SEARCH_WEIGHTS, searchIndexStamp } from './search-index.ts'

/**
 * What an in-memory copy of the word index (src-main/search/word-memory.ts) is made from, read from
 * FTS5's own tables in one snapshot: its tokens (an fts5vocab `instance` table: term, post, column),
 * each post's token count (%_docsize) and the totals BM25 averages over (%_data's averages record).
 */
export interface WordIndexReader {
  /** searchIndexStamp when read. */
  stamp: string
  /** FTS5's row count and token count over all columns, as bm25() reads them. */
  rows: number
  tokens: number
  /** bm25()'s column weights (SEARCH_WEIGHTS), in column order. */
  weights: number[]
  /** Every indexed post by rowid ascending, with its token count over all columns. */
  sizes(each: (rowid: number, size: number) => void): void
  /** Every token instance, by term (FTS5's byte order), then post ascending; `col` indexes SEARCH_COLUMNS. */
  instances(each: (term: string, rowid: number, col: number) => void): void
  /** FTS5's IDF of a phrase found in 0 … rows posts (its `log` is C's, which Math.log differs from in the last bit). */
  idf(): Float64Array
}

/** SQLite's varint (as FTS5 writes its records): big-endian 7-bit groups, a ninth byte of 8. */
function varints(buf: Buffer): number[] {
  const out: number[] = []
  for (let i = 0; i < buf.length;) {
    let v = 0
    let n = 0
    for (; n < 8; n++) {
      const byte = buf[i++]
      v = v * 128 + (byte & 0x7f)
      if (byte < 0x80) break
    }
    if (n === 8) v = v * 256 + buf[i++]
    out.push(v)
  }
  return out
}

const INSTANCES = 'search_fts_instances'

/** Rows read between looks at `stopped`. */
const STOP_EVERY = 4096

/**
 * Reads the word index for `build` inside one read transaction (the connection's own: a worker's);
 * throws once `stopped` says so (the app is closing), looked at every STOP_EVERY rows.
 */
export function readWordIndex<T>(db: Db, build: (r: WordIndexReader) => T, stopped: () => boolean = () => false): T {
  let seen = 0
  const look = () => {
    if (++seen % STOP_EVERY === 0 && stopped()) throw new Error('the word index read was stopped')
  }
  sqliteOf(db).exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${INSTANCES} USING fts5vocab(main, search_fts, instance)`)
  return readTransaction(db, () => {
    const averages = stmt(db, 'SELECT block FROM search_fts_data WHERE id = 1').pluck().get() as Buffer | undefined
    const [rows = 0, ...columns] = averages ? varints(averages) : []
    const cols = new Map<string, number>(SEARCH_COLUMNS.map((c, i) => [c, i]))
    return build({
      stamp: searchIndexStamp(db),
      rows,
      tokens: columns.reduce((s, n) => s + n, 0),
      weights: SEARCH_COLUMNS.map((c) => SEARCH_WEIGHTS[c]),
      sizes(each) {
        for (const [id, sz] of stmt(db, 'SELECT id, sz FROM search_fts_docsize ORDER BY id').raw().iterate() as Iterable<[number, Buffer]>) {
          look()
          each(id, varints(sz).reduce((s, n) => s + n, 0))
        }
      },
      instances(each) {
        for (const [term, doc, col] of stmt(db, `SELECT term, doc, col FROM temp.${INSTANCES}`).raw().iterate() as Iterable<[string, number, string]>) {
          look()
          each(term, doc, cols.get(col)!)
        }
      },
      idf() {
        const out = new Float64Array(rows + 1)
        const logs = stmt(db, `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < :rows)
          SELECT ln((:rows - i + 0.5) / (i + 0.5)) FROM n`).pluck().all({ rows }) as Array<number | null>
        // bm25()'s floor (fts5_aux.c): a phrase in more than half of the posts still counts a little.
        logs.forEach((x, i) => (out[i] = x === null || x <= 0 ? 1e-6 : x))
        return out
      },
    })
  })
}

/**
 * The word index's tokenizer, on a connection of its own in memory: a question's words become the
 * tokens FTS5 would look up (porter stems, folded case and diacritics), exactly, by FTS5 itself.
 */
export function openWordTokenizer(db: Db): { tokens(text: string): string[]; close(): void } {
  const sql = stmt(db, "SELECT sql FROM sqlite_schema WHERE name = 'search_fts'").pluck().get() as string
  const tokenize = /tokenize\s*=\s*('(?:[^']|'')*')/i.exec(sql)?.[1] ?? "'unicode61'"
  const mem = new Database(':memory:')
  mem.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = ${tokenize}); CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)`)
  const put = mem.prepare('INSERT INTO t(rowid, x) VALUES (1, ?)')
  const read = mem.prepare('SELECT term FROM v ORDER BY offset').pluck()
  const clear = mem.prepare('DELETE FROM t')
  return {
    tokens(text) {
      put.run(text)
      try {
        return read.all() as string[]
      } finally {
        clear.run()
      }
    },
    close: () => mem.close(),
  }
}
