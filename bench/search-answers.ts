/**
 * What search answers, for comparing two versions of the code: a `sheaf serve` child over a copy of a
 * library (`--db`), settled as bench/search-alone.ts settles it (search by meaning on the model it will
 * use), asked each of bench/search-questions.ts's 637 questions at the three page sizes search-alone
 * uses, one at a time. Writes one line per answer, `question`, `limit` and the response body as served,
 * to `--out`. `--compare A B` prints how many bodies are byte-identical, how far B's first ten results
 * agree with A's (`top10`: set overlap, same set, same order; A taken as the exact answers), and the first differences.
 * `--warm`: every question asked once first, unrecorded, so what a server keeps between searches (a broad
 * filter's posts, search/filter-sets.ts, built once the library has stood still for 2 s) answers every recorded one.
 * Run it from each version's tree (the server is that tree's src-main), then compare:
 *   node bench/search-answers.ts --db FILE --out /tmp/answers-main.jsonl   (in the other tree)
 *   node bench/search-answers.ts --db FILE --out /tmp/answers-branch.jsonl
 *   node bench/search-answers.ts --compare /tmp/answers-main.jsonl /tmp/answers-branch.jsonl
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { benchDataDir, fillDuplicateKeys, keptAliveGet, signIn, spawnServer } from './child-server.ts'
import { MANY_QUESTIONS } from './search-questions.ts'

const { values, positionals } = parseArgs({ allowPositionals: true, options: {
  db: { type: 'string' }, out: { type: 'string' }, compare: { type: 'boolean', default: false }, warm: { type: 'boolean', default: false },
} })

type Answer = { q: string; limit: number; body: string }
const LIMITS = [10, 15, 20]

if (values.compare) {
  const read = (f: string) => new Map(readFileSync(f, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Answer).map((a) => [`${a.limit} ${a.q}`, a.body]))
  const [a, b] = positionals.map(read)
  const differ = [...a].filter(([k, body]) => b.get(k) !== body).map(([k]) => k)
  process.stdout.write(JSON.stringify({ answers: a.size, identical: a.size - differ.length, top10: topAgreement(a, b), differ: differ.slice(0, 50) }, null, 2) + '\n')
  process.exit(0)
}
/**
 * How far B's first ten results agree with A's (A the exact answers): the mean share of A's ten that B
 * also returns in its ten (set overlap), and the share of answers whose ten are the same posts in the same order.
 */
function topAgreement(a: Map<string, string>, b: Map<string, string>): { overlap: number; sameSet: number; sameOrder: number } {
  const top = (body: string | undefined) => ((body ? JSON.parse(body) : { results: [] }) as { results: Array<{ bookmark: { id: number } }> })
    .results.slice(0, 10).map((r) => r.bookmark.id)
  let overlap = 0
  let sameSet = 0
  let sameOrder = 0
  for (const [k, body] of a) {
    const x = top(body)
    const y = top(b.get(k))
    const shared = x.filter((id) => y.includes(id)).length
    overlap += Math.max(x.length, y.length) === 0 ? 1 : shared / Math.max(x.length, y.length)
    if (shared === x.length && x.length === y.length) sameSet++
    if (x.join() === y.join()) sameOrder++
  }
  const mean = (n: number) => Math.round((n / a.size) * 10000) / 10000
  return { overlap: mean(overlap), sameSet: mean(sameSet), sameOrder: mean(sameOrder) }
}

if (!values.db || !values.out) throw new Error('usage: --db FILE --out FILE, or --compare A B')

const sqlite = new Database(values.db, { readonly: true, fileMustExist: true })
const expected = sqlite.prepare("SELECT 1 FROM embeddings WHERE model = 'use-lite-512' LIMIT 1").get() ? 'use-lite-512' : 'sheaf-search-wv100'
sqlite.close()

const dataDir = await benchDataDir('search-answers', fillDuplicateKeys, values.db)
const server = spawnServer(dataDir)
try {
  const { base, cookie } = await signIn(server)
  const get = keptAliveGet(base, cookie)
  const path = (q: string, limit: number) => `/api/search/ai?q=${encodeURIComponent(q)}&limit=${limit}`
  const t0 = performance.now()
  for (;;) {
    const { body } = await get(path(MANY_QUESTIONS[0], 10))
    const r = JSON.parse(body) as { semanticModel: string; understood: { notes?: string[] } }
    if (r.semanticModel === expected && !JSON.stringify(r).includes('still loading')) break
    if (performance.now() - t0 > 180_000) throw new Error(`search by meaning did not settle on ${expected}`)
    await new Promise((res) => setTimeout(res, 500))
  }
  if (values.warm) for (const q of MANY_QUESTIONS) await get(path(q, 10))
  const lines: string[] = []
  for (const limit of LIMITS) {
    for (const q of MANY_QUESTIONS) lines.push(JSON.stringify({ q, limit, body: (await get(path(q, limit))).body } satisfies Answer))
  }
  writeFileSync(values.out, lines.join('\n') + '\n')
  process.stdout.write(`${lines.length} answers in ${values.out}\n`)
} finally {
  server.kill('SIGTERM')
  await new Promise((r) => (server.exitCode === null ? server.once('exit', r) : r(null)))
  rmSync(dataDir, { recursive: true, force: true })
}
