/**
 * Search at scale: imports a generated 100,000-post library through the library's importer (so the
 * FTS triggers run as they do for users), computes the offline sentence vectors, then times offline
 * search (fused, lexical-only, semantic-only) and quick search in-process. Prints one JSON object.
 * Targets: offline search p95 < 30 ms, quick search p95 < 20 ms at 100k posts.
 * Wall times depend on what else the machine runs, so CPU time per query is reported too.
 * Usage: node bench/search-latency.ts [--posts 100000] [--rounds 300] [--db FILE (kept and reused)]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os, { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createLibrary } from '../src-main/library/index.ts'
import { createSearch, type SearchMode } from '../src-main/search/index.ts'
import { closeDatabase, openDatabase } from '../src-main/store/index.ts'
import { iteratePosts, writeGraphqlBookmarks } from './generate-library.ts'

const { values } = parseArgs({ options: { posts: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '300' }, db: { type: 'string' } } })
const n = Number(values.posts)
const rounds = Number(values.rounds)
const file = join(tmpdir(), `sheaf-bench-graphql-${n}.json`)
if (!existsSync(file)) await writeGraphqlBookmarks(file, iteratePosts(n, 42))

const dir = values.db ? null : mkdtempSync(join(tmpdir(), 'sheaf-bench-search-'))
const dbFile = values.db ?? join(dir!, 'sheaf.db')
const reuse = existsSync(dbFile)
const db = openDatabase({ file: dbFile })
const clock = () => Date.UTC(2025, 11, 20)
const library = createLibrary({ db, clock })
let t0 = performance.now()
const imported = reuse ? { imported: db.$client.prepare('SELECT count(*) FROM bookmarks').pluck().get() as number } : await library.importFile(file)
const importMs = reuse ? null : performance.now() - t0

const search = createSearch({ db, clock, catchUpBudgetMs: 0 })
t0 = performance.now()
search.indexQueued()
const indexAllMs = performance.now() - t0
t0 = performance.now()
await search.backfillEmbeddings()
const embedAllMs = performance.now() - t0

const QUERIES = [
  'sqlite query plans', 'how to make my database faster', 'sourdough starter tips', 'typescript bundlers vite',
  'protein folding breakthrough', 'from:@AnaPark0 react', 'espresso last year', 'has:image climate models',
  'design tokens in figma', 'fine-tuning LLM agents', 'ramen', 'why I stopped using css grid', '"context window"',
  'telescopes -exoplanets', 'in 2023 parquet streaming', 'materialised views postgres', 'benchmarks inside',
  'accesibility onboarding', 'quantum batteries fusion', 'knife skills cast iron',
]
const QUICK = ['s', 'sq', 'sql', 'sqlite', 'sourd', 'ana', 'anapark', 'typescr', 'the', 'espresso b', 'protein f', 'ca']

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 100) / 100
}
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
async function time(mode: SearchMode) {
  const ms: number[] = []
  const cpu0 = cpuMs()
  for (let i = 0; i < rounds; i++) {
    const q = QUERIES[i % QUERIES.length]
    const s = performance.now()
    await search.search(q, { limit: 10, mode })
    ms.push(performance.now() - s)
  }
  return { p50: pct(ms, 50), p95: pct(ms, 95), max: pct(ms, 100), cpuMsPerQuery: Math.round(((cpuMs() - cpu0) / rounds) * 100) / 100 }
}
for (const q of QUERIES) await search.search(q, { limit: 10 }) // warm statements and caches
const fused = await time('fused')
const lexical = await time('lexical')
const semantic = await time('semantic')
const quickMs: number[] = []
const quickCpu0 = cpuMs()
for (let i = 0; i < rounds * 2; i++) {
  const s = performance.now()
  search.quick(QUICK[i % QUICK.length], 8)
  quickMs.push(performance.now() - s)
}
const sample = await search.search('how to make my database faster', { limit: 3 })

console.log(JSON.stringify({
  bench: 'search-latency',
  posts: n,
  imported: imported.imported,
  importMs: importMs === null ? 'reused database' : Math.round(importMs),
  indexAllMs: Math.round(indexAllMs),
  loadAverage: os.loadavg().map((x) => Math.round(x * 10) / 10),
  embedAllMs: Math.round(embedAllMs),
  fusedMs: fused,
  lexicalMs: lexical,
  semanticMs: semantic,
  quickMs: { p50: pct(quickMs, 50), p95: pct(quickMs, 95), max: pct(quickMs, 100), cpuMsPerQuery: Math.round(((cpuMs() - quickCpu0) / (rounds * 2)) * 100) / 100 },
  targets: { fusedP95: 30, quickP95: 20 },
  pass: fused.p95 < 30 && pct(quickMs, 95) < 20,
  rssMb: Math.round(process.memoryUsage().rss / 1048576),
  simd: search.simd,
  sample: sample.results.map((r) => ({ relevance: r.relevance, reason: r.reason, text: r.bookmark.text.slice(0, 80) })),
}, null, 2))
search.close()
closeDatabase(db)
if (dir) rmSync(dir, { recursive: true, force: true })
