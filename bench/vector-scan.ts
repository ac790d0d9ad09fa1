/**
 * The vector scan of a search, alone: every stored vector of a library (`embeddings`, model
 * use-lite-512 unless `--model`) in two flat indexes, one scanning every int8 row (exact, as below
 * CODES_FROM rows) and one ranking by code first then re-scoring rescored(k) rows (as from CODES_FROM),
 * asked the questions of bench/search-questions.ts encoded by the real sentence model. Prints recall of
 * the code path against the exact ranking (@10, @200 and @1000, the k search asks for: CANDIDATES and
 * WIDE; and of the exact 200 within SEMANTIC_BAND of the best, what search keeps), ms per query of each path and k, the index's memory, and the load average.
 * Run under the bench lock: flock /work/bench.lock node bench/vector-scan.ts --db /tmp/scan-100k.db
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { encodeTexts } from '../src-main/ai/local/sentence-encoder.ts'
import { createFlatIndex, type FlatIndex } from '../src-main/vectors/index.ts'
import { MANY_QUESTIONS } from './search-questions.ts'

const { values } = parseArgs({ options: {
  db: { type: 'string' }, model: { type: 'string', default: 'use-lite-512' }, rounds: { type: 'string', default: '3' },
} })
if (!values.db) throw new Error('usage: node bench/vector-scan.ts --db FILE [--model use-lite-512] [--rounds 3]')
const load = () => loadavg().map((x) => Math.round(x * 100) / 100)
const loadBefore = load()

const db = new Database(values.db, { readonly: true, fileMustExist: true })
const stored = db.prepare('SELECT bookmark_id AS id, dim, encoding, vector FROM embeddings WHERE model = ? ORDER BY bookmark_id')
  .all(values.model) as Array<{ id: number; dim: number; encoding: string; vector: Buffer }>
db.close()
if (stored.length === 0 || stored[0].encoding !== 'f32') throw new Error(`no f32 vectors of ${values.model} in ${values.db}`)
const dim = stored[0].dim
const vectors = stored.map((r) => new Float32Array(new Uint8Array(r.vector).buffer, 0, dim))

const build = (codesFrom: number): { index: FlatIndex; ms: number } => {
  const t0 = performance.now()
  const index = createFlatIndex({ dim, initialCapacity: 4096, codesFrom })
  stored.forEach((r, i) => index.upsert(r.id, vectors[i]))
  return { index, ms: performance.now() - t0 }
}
const exact = build(Infinity)
const coded = build(0)
const queries = await encodeTexts(MANY_QUESTIONS)

const KS = [10, 200, 1000]
/** Search keeps of its 200 nearest only those within this of the best (candidates.ts SEMANTIC_BAND). */
const BAND = 0.2
const recall: Record<number, number[]> = Object.fromEntries(KS.map((k) => [k, []]))
const inBand: number[] = []
for (const q of queries) {
  for (const k of KS) {
    const truth = exact.index.search(q, k)
    const found = new Set(coded.index.search(q, k).map((h) => h.id))
    recall[k].push(truth.filter((h) => found.has(h.id)).length / truth.length)
    if (k !== 200) continue
    const kept = truth.filter((h) => h.score >= truth[0].score - BAND)
    inBand.push(kept.filter((h) => found.has(h.id)).length / kept.length)
  }
}
/** Mean ms per query of `index` at k over every question, `rounds` times (the first round warms up). */
const time = (index: FlatIndex, k: number): number => {
  const rounds = Number(values.rounds)
  let ms = 0
  for (let r = 0; r <= rounds; r++) {
    const t0 = performance.now()
    for (const q of queries) index.search(q, k)
    if (r > 0) ms += performance.now() - t0
  }
  return ms / rounds / queries.length
}
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits
const result = {
  bench: 'vector-scan',
  library: values.db,
  model: values.model,
  rows: stored.length,
  dim,
  queries: queries.length,
  recall: Object.fromEntries(KS.map((k) => [`@${k}`, {
    mean: round(recall[k].reduce((a, b) => a + b, 0) / recall[k].length, 4),
    min: round(Math.min(...recall[k]), 3),
    exactShare: round(recall[k].filter((r) => r === 1).length / recall[k].length, 3),
  }])),
  recallOf200WithinBand: { mean: round(inBand.reduce((a, b) => a + b, 0) / inBand.length, 4), min: round(Math.min(...inBand), 3) },
  msPerQuery: Object.fromEntries(KS.map((k) => [`k=${k}`, { exact: round(time(exact.index, k)), byCode: round(time(coded.index, k)) }])),
  buildMs: { exact: Math.round(exact.ms), byCode: Math.round(coded.ms) },
  // What the codes add to the int8 rows (rowBytes each): a code per row.
  addedMb: round(stored.length * Math.ceil(dim / 8 / 16) * 16 / 1e6, 1),
  rowsMb: round(stored.length * Math.ceil(dim / 16) * 16 / 1e6, 1),
  loadAverage: { before: loadBefore, after: load() },
}
console.log(JSON.stringify(result, null, 2))
