/**
 * The word half's statements alone on a library (`--db`, opened read-only), CPU ms per statement: BM25 as search
 * asks for it (the newest 500 matches, weighted), unweighted, BM25's IDF pass with one row, every match walked
 * without BM25, and FTS5's `ORDER BY bm25 LIMIT 200` (every match scored). Shows what of a word's cost is the IDF
 * pass over its whole doclist (inside bm25(), out of SQL's reach) and what the rows scored. Three rounds each.
 * Usage: node bench/fts5-statements.ts --db COPY [--words "faster,sqlite,context window"]
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { SEARCH_COLUMNS, SEARCH_WEIGHTS } from '../src-main/store/queries/search-index.ts'

const { values } = parseArgs({ options: { db: { type: 'string' }, words: { type: 'string', default: 'faster,sqlite,typography,context window,"vector"* OR "embedding"*' } } })
if (!values.db) throw new Error('usage: node bench/fts5-statements.ts --db COPY [--words "a,b"]')
const loadBefore = loadavg()[0]
const db = new Database(values.db, { readonly: true, fileMustExist: true })
const W = `bm25(search_fts, ${SEARCH_COLUMNS.map((c) => SEARCH_WEIGHTS[c]).join(', ')})`
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const time = (label: string, run: () => unknown, n: number) => {
  run()
  const ms: string[] = []
  for (let r = 0; r < 3; r++) {
    const t = cpuMs()
    for (let i = 0; i < n; i++) run()
    ms.push(((cpuMs() - t) / n).toFixed(3))
  }
  console.log(`  ${label.padEnd(42)} ${ms.join(' ')} ms`)
}
const asNow = db.prepare(`SELECT id, score FROM (SELECT rowid AS id, -${W} AS score FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT 500) ORDER BY score DESC LIMIT 200`)
const unweighted = db.prepare('SELECT id, score FROM (SELECT rowid AS id, -bm25(search_fts) AS score FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT 500) ORDER BY score DESC LIMIT 200')
const idfAndOne = db.prepare(`SELECT -${W} FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT 1`)
const walk = db.prepare('SELECT count(*) FROM search_fts WHERE search_fts MATCH ?').pluck()
const byRank = db.prepare(`SELECT rowid AS id, -${W} AS score FROM search_fts WHERE search_fts MATCH ? ORDER BY ${W} LIMIT 200`)
for (const w of values.words.split(',')) {
  console.log(`${w} (${String(walk.get(w))} posts)`)
  time('as search asks: newest 500, weighted', () => asNow.all(w), 40)
  time('newest 500, unweighted', () => unweighted.all(w), 40)
  time('the IDF pass and 1 row', () => idfAndOne.get(w), 40)
  time('every match walked, no BM25', () => walk.get(w), 40)
  time('ORDER BY bm25 LIMIT 200 (every match)', () => byRank.all(w), 10)
}
console.log(`load average ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}`)
