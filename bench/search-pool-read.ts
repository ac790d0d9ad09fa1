/**
 * Search's pool read, in-process: 30 random posts of a library (`--db`, opened in place: use a copy),
 * read the two ways search has read them: the explanation's columns (searchDocuments) and then the shown
 * hits again (bookmarksForHits, `--shown` of them, in a read transaction), against each post read once
 * (searchPool, and the hits built from it: hitsFrom). Random posts are mostly not in the page cache, as
 * a search's pool is not. Each way reads its own pools (the same count), in alternating order, `--rounds` times;
 * prints the median ms per pool of each (the first two rounds warm up and are not counted).
 * Usage: node bench/search-pool-read.ts --db COPY [--rounds 8] [--pools 800] [--shown 15]
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { bookmarksForHits, hitsFrom } from '../src-main/search/hits.ts'
import { closeDatabase, openDatabase, readTransaction, searchDocuments, searchPool } from '../src-main/store/index.ts'
import { sqliteOf } from '../src-main/store/db.ts'

const { values } = parseArgs({ options: { db: { type: 'string' }, rounds: { type: 'string', default: '8' }, pools: { type: 'string', default: '800' }, shown: { type: 'string', default: '15' } } })
if (!values.db) throw new Error('--db COPY (a library, opened in place)')
const db = openDatabase({ file: values.db })
const max = sqliteOf(db).prepare('SELECT max(id) FROM bookmarks').pluck().get() as number
const shown = Number(values.shown)
let seed = 7
const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
const pool = () => Array.from({ length: 30 }, () => 1 + Math.floor(random() * max))

const ways: Record<string, (ids: number[]) => number> = {
  'read twice': (ids) => {
    const docs = searchDocuments(db, ids)
    return docs.length + readTransaction(db, () => bookmarksForHits(db, ids.slice(0, shown))).size
  },
  'read once': (ids) => {
    const read = searchPool(db, ids)
    return read.docs.length + hitsFrom(read, ids.slice(0, shown)).size
  },
}
const load = () => loadavg().map((x) => Math.round(x * 100) / 100)
const loadBefore = load()
const ms: Record<string, number[]> = {}
const names = Object.keys(ways)
for (let round = 0; round < Number(values.rounds); round++) {
  for (const name of round % 2 ? [...names].reverse() : names) {
    const pools = Array.from({ length: Number(values.pools) }, pool)
    const t0 = performance.now()
    for (const p of pools) ways[name](p)
    if (round >= 2) (ms[name] ??= []).push((performance.now() - t0) / pools.length)
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
process.stdout.write(JSON.stringify({
  bench: 'search-pool-read', posts: max, pool: 30, shown,
  msPerPool: Object.fromEntries(names.map((n) => [n, Math.round(median(ms[n]) * 1000) / 1000])),
  loadAverage: { before: loadBefore, after: load() },
}, null, 2) + '\n')
closeDatabase(db)
