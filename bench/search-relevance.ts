/**
 * Search quality: a library of the real export fixtures (../shared/fixtures/exports, imported through
 * the library's importer) plus the judged target posts and look-alike distractors of
 * bench/search-relevance-set.ts, then MRR@10 and recall@10 per query kind for lexical-only,
 * semantic-only and fused offline search, and relevance calibration (mean relevance of the right
 * answer vs the rest). Prints one JSON object. Usage: node bench/search-relevance.ts [--verbose] [--ranks]
 * (--verbose: the queries missed; --ranks: each query's judged post's rank, 1-10, or null, to compare runs query by query)
 *
 * With a real model configured by environment (never a fake), the same queries are also run reranked
 * by it (and, with SHEAF_BENCH_EMBEDDING_MODEL, with its vectors):
 *   SHEAF_BENCH_PROVIDER=openai|anthropic|claude-cli SHEAF_BENCH_MODEL=… [SHEAF_BENCH_BASE_URL=…]
 *   [SHEAF_BENCH_API_KEY=…] [SHEAF_BENCH_EMBEDDING_MODEL=…]
 * Unset: the model part is skipped and the output says why.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createLibrary } from '../src-main/library/index.ts'
import { createLocalProvider, createProvider } from '../src-main/ai/index.ts'
import { createLogger } from '../src-main/app/index.ts'
import { createPipeline } from '../src-main/pipeline/index.ts'
import { createSearch, providerEmbedder, providerReranker, type Search, type SearchMode } from '../src-main/search/index.ts'
import { closeDatabase, openDatabase } from '../src-main/store/index.ts'
import { sheafExport } from '../tests/search/sheaf-export.ts'
import { CATEGORIES, TARGETS, distractors, judged, type QueryKind } from './search-relevance-set.ts'
import { sqliteOf } from '../src-main/store/db.ts'

const { values } = parseArgs({ options: { verbose: { type: 'boolean', default: false }, ranks: { type: 'boolean', default: false } } })
const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../shared/fixtures/exports')

const dir = mkdtempSync(join(tmpdir(), 'sheaf-bench-relevance-'))
const db = openDatabase({ file: join(dir, 'sheaf.db') })
const clock = () => Date.UTC(2025, 5, 15)
const library = createLibrary({ db, clock })

const fixtureFiles: string[] = []
if (existsSync(FIXTURES)) {
  for (const sub of ['graphql', 'derived', 'flat', 'archive/alrocar_x']) {
    const d = join(FIXTURES, sub)
    if (!existsSync(d)) continue
    for (const f of readdirSync(d)) if (/\.(json|js|csv)$/.test(f) && f !== 'manifest.js' && f !== 'note-tweet.js') fixtureFiles.push(join(d, f))
  }
}
let fixturePosts = 0
for (const f of fixtureFiles) {
  try {
    fixturePosts += (await library.importFile(f)).imported
  } catch {
    // a fixture the importer does not take on its own (the archive's parts) is skipped
  }
}
const generated = join(dir, 'generated.json')
writeFileSync(generated, sheafExport([...TARGETS, ...distractors(400)], CATEGORIES))
await library.importFile(generated)
const total = sqliteOf(db).prepare('SELECT count(*) FROM bookmarks').pluck().get() as number

// The library is analysed as the app does after an import (local models, no media fetching): the
// sentence encoder's vectors are what the meaning-based half searches once they cover the library.
const pipeline = createPipeline({
  db, clock, log: createLogger({ level: 'error' }), activeProvider: async () => createLocalProvider(), mediaCache: () => null, autoRunAfterImport: () => false,
})
await pipeline.start({}, null)
await pipeline.idle()
await pipeline.close()

const offline = createSearch({ db, clock })
const search = offline
search.indexQueued()
await search.backfillEmbeddings()
await settled(search)
const idOf = new Map((sqliteOf(db).prepare('SELECT post_id AS p, id FROM bookmarks').all() as Array<{ p: string; id: number }>).map((r) => [r.p, r.id]))
const queries = judged()

/**
 * Waits, turning the event loop, until search by meaning answers with the sentence encoder: its vectors load in
 * slices between requests (a server's case), and this bench's searches can run without yielding to them.
 */
async function settled(s: Search, model = 'use-lite-512', ms = 60_000): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setImmediate(r))) {
    if ((await s.search('warm up', { limit: 1, mode: 'semantic' })).semanticModel === model) return
  }
  throw new Error(`search by meaning still did not use ${model} after ${ms / 1000} s`)
}

type Score = { mrr: number; recall: number; n: number }
async function evaluate(mode: SearchMode, search: Search = offline) {
  const byKind = new Map<QueryKind | 'all', { rr: number; hit: number; n: number }>()
  const rel = { right: [] as number[], rest: [] as number[] }
  const misses: string[] = []
  const ranks: Record<string, number | null> = {}
  for (const j of queries) {
    const res = await search.search(j.q, { limit: 10, mode })
    const target = idOf.get(j.target)
    const rank = res.results.findIndex((r) => r.bookmark.id === target)
    for (const [i, r] of res.results.entries()) (i === rank ? rel.right : rel.rest).push(r.relevance)
    if (rank < 0) misses.push(j.q)
    ranks[j.q] = rank < 0 ? null : rank + 1
    for (const k of [j.kind, 'all'] as const) {
      const s = byKind.get(k) ?? { rr: 0, hit: 0, n: 0 }
      s.n++
      if (rank >= 0) {
        s.rr += 1 / (rank + 1)
        s.hit++
      }
      byKind.set(k, s)
    }
  }
  const round = (x: number) => Math.round(x * 1000) / 1000
  const scores = {} as Record<QueryKind | 'all', Score>
  for (const [k, s] of byKind) scores[k] = { mrr: round(s.rr / s.n), recall: round(s.hit / s.n), n: s.n }
  const mean = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length) : null)
  return { ...scores, relevance: { rightAnswerMean: mean(rel.right), othersMean: mean(rel.rest) }, ...(values.verbose ? { misses } : {}), ...(values.ranks ? { ranks } : {}) }
}

const lexical = await evaluate('lexical')
const semantic = await evaluate('semantic')
const fused = await evaluate('fused')
const model = await withModel()
const examples = []
for (const q of ['making slow sql lookups fast', 'raleigh scatering', 'median rent versus wages chart', 'in:money last year']) {
  const r = await search.search(q, { limit: 1 })
  examples.push({ q, top: r.results[0]?.bookmark.text.slice(0, 70), relevance: r.results[0]?.relevance, reason: r.results[0]?.reason, chips: r.understood.chips.map((c) => c.label) })
}

console.log(JSON.stringify({
  bench: 'search-relevance',
  library: { posts: total, fromFixtures: fixturePosts, fixtureFiles: fixtureFiles.length, targets: TARGETS.length },
  queries: queries.length,
  metric: 'MRR@10 and recall@10 (one judged answer per query)',
  semanticModel: (await search.search('warm up', { limit: 1, mode: 'semantic' })).semanticModel,
  lexical, semantic, fused,
  fusedBeatsLexical: fused.all.mrr > lexical.all.mrr,
  model,
  examples,
}, null, 2))
await search.close()
closeDatabase(db)
rmSync(dir, { recursive: true, force: true })

/** The judged queries reranked by a real configured model (fused mode), or why that was skipped. */
async function withModel() {
  const name = process.env.SHEAF_BENCH_PROVIDER
  if (!name) return { skipped: 'set SHEAF_BENCH_PROVIDER (openai, anthropic or claude-cli) and SHEAF_BENCH_MODEL to measure a real model' }
  if (!['openai', 'anthropic', 'claude-cli'].includes(name)) return { skipped: `SHEAF_BENCH_PROVIDER=${name} is not a remote provider` }
  const provider = createProvider({
    name: name as 'openai' | 'anthropic' | 'claude-cli',
    apiKey: process.env.SHEAF_BENCH_API_KEY ?? null,
    model: process.env.SHEAF_BENCH_MODEL ?? null,
    baseUrl: process.env.SHEAF_BENCH_BASE_URL ?? null,
    embeddingModel: process.env.SHEAF_BENCH_EMBEDDING_MODEL ?? null,
  })
  const embedder = providerEmbedder(provider)
  const reranked = createSearch({ db, clock, reranker: providerReranker(provider), rerankTimeoutMs: 60_000, ...(embedder ? { embedder } : {}) })
  try {
    let embedded = 0
    if (embedder) embedded = (await reranked.backfillEmbeddings()).embedded
    const states = { applied: 0, failed: 0, off: 0 }
    const started = performance.now()
    const counting: Search = { ...reranked, search: async (q, o) => {
      const r = await reranked.search(q, o)
      states[r.rerank]++
      return r
    } }
    const scores = await evaluate('fused', counting)
    return {
      provider: provider.name, model: provider.model, embeddingModel: embedder?.model ?? null, embedded,
      rerank: states, msPerQuery: Math.round((performance.now() - started) / queries.length),
      fused: scores, beatsOffline: scores.all.mrr > fused.all.mrr,
    }
  } catch (e) {
    return { failed: e instanceof Error ? e.message : String(e) }
  } finally {
    reranked.close()
  }
}
