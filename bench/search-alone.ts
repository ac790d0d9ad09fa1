/**
 * Search alone at scale, on loopback: a `sheaf serve` child over a copy of a library built by
 * bench/search-latency.ts (`--db FILE`; built there first when missing), then `--concurrency` clients,
 * closed loop, for `--seconds`, each asking the next question of bench/search-questions.ts with the next
 * page size (10, 15, 20) over a kept-alive connection (plain sockets: keptAliveSockets; `--client undici`: keptAlivePool). `--questions many` (the default): 637 questions,
 * more than search keeps query vectors for, so each one's vector is computed again (the sentence
 * encoder's work counts); `--questions varied`: the 89 of bench/search-profile.ts, whose vectors are
 * remembered after the warm-up. The library settles first: the word index caught up and search by meaning answering
 * with the model it will use (`use-lite-512` for a library built with `--encoder`).
 * Prints requests/s, latency percentiles, errors, and the server's CPU per search: its HTTP (main)
 * thread and the whole process (every thread), and this bench's own (the clients share the 2 cores), with the load average before and after.
 * `--rate N`: an open loop instead, N searches sent a second whatever the answers (after the closed warm-up),
 * each timed from when it was due: the latency at a given load, where the closed loop's is set by its
 * clients (16 clients at X searches/s wait 16/X s on average, however fast each search is).
 * Target (issue 14): >= 500 searches/s with p95 < 50 ms at 100,000 posts on 2 cores.
 * Usage: node bench/search-alone.ts [--db /tmp/sheaf-bench-search-100000.db] [--posts 100000] [--seconds 20]
 *        [--concurrency 16] [--rate N] [--warm-seconds 3] [--questions many|varied] [--client sockets|undici]   (SHEAF_BENCH_CPU_PROF=DIR profiles the server)
 */
import { spawnSync } from 'node:child_process'
import { existsSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { benchDataDir, busyThreads, cpuMs, fillDuplicateKeys, keptAlivePool, keptAliveSockets, processMemoryMb, quantile, signIn, spawnServer, threadCpu, type Answer } from './child-server.ts'
import { MANY_QUESTIONS, QUESTIONS } from './search-questions.ts'

const { values } = parseArgs({ options: {
  db: { type: 'string' }, posts: { type: 'string', default: '100000' }, seconds: { type: 'string', default: '20' },
  concurrency: { type: 'string', default: '16' }, rate: { type: 'string' }, questions: { type: 'string', default: 'many' }, 'warm-seconds': { type: 'string', default: '3' }, 'max-seconds': { type: 'string', default: '600' }, client: { type: 'string', default: 'sockets' },
} })
const posts = Number(values.posts)
const concurrency = Number(values.concurrency)
const rate = values.rate ? Number(values.rate) : null
const load = () => loadavg().map((x) => Math.round(x * 100) / 100)
const loadBefore = load()

const libraryDb = values.db ?? join(tmpdir(), `sheaf-bench-search-${posts}.db`)
if (!existsSync(libraryDb)) {
  const built = spawnSync(process.execPath, ['bench/search-latency.ts', '--posts', String(posts), '--rounds', '1', '--db', libraryDb], { stdio: ['ignore', 'ignore', 'inherit'] })
  if (built.status !== 0) throw new Error(`building the library failed (${built.status})`)
}
const dataDir = await benchDataDir('search-alone', fillDuplicateKeys, libraryDb)
const server = spawnServer(dataDir)
const stop = () => { if (server.exitCode === null) server.kill('SIGTERM') }
const hardStop = setTimeout(() => { stop(); rmSync(dataDir, { recursive: true, force: true }); process.exit(2) }, Number(values['max-seconds']) * 1000)
hardStop.unref()

const { base, cookie } = await signIn(server)
if (!/^http:\/\/127\./.test(base)) throw new Error(`the bench runs on loopback only (server at ${base})`)
// An open loop may have more searches out than the closed loop's clients.
const clients = values.client === 'undici' ? keptAlivePool : keptAliveSockets
const { client: clientKind, get, close: closeClients } = clients(base, cookie, rate ? Math.max(concurrency, 64) : concurrency)
const asked = values.questions === 'varied' ? QUESTIONS : MANY_QUESTIONS
const LIMITS = [10, 15, 20]
const searchPath = (n: number) => `/api/search/ai?q=${encodeURIComponent(asked[n % asked.length])}&limit=${LIMITS[Math.floor(n / asked.length) % LIMITS.length]}`

/** The model search by meaning will answer with once settled: the sentence encoder's if the library has its vectors. */
function expectedModel(): string {
  const db = new Database(libraryDb, { readonly: true, fileMustExist: true })
  try {
    return db.prepare("SELECT 1 FROM embeddings WHERE model = 'use-lite-512' LIMIT 1").get() ? 'use-lite-512' : 'sheaf-search-wv100'
  } finally {
    db.close()
  }
}
/** Until search by meaning answers with that model, all of its vectors read (they load in slices), at most 120 s. */
async function settle(expected: string): Promise<{ ms: number; semanticModel: string }> {
  const t0 = performance.now()
  for (;;) {
    const a = await get(searchPath(0), true)
    if (a.status !== 200) throw new Error(`search answered ${a.status}: ${a.body.slice(0, 200)}`)
    const model = (JSON.parse(a.body) as { semanticModel: string }).semanticModel
    // A search answers with the encoder's vectors while they load too, saying so.
    const settled = model === expected && !a.body.includes('still loading')
    if (settled || performance.now() - t0 > 120_000) return { ms: Math.round(performance.now() - t0), semanticModel: model }
    await new Promise((r) => setTimeout(r, 500))
  }
}
const settled = await settle(expectedModel())

/** Closed loop: each client sends its next search when the last is answered. */
async function run(secs: number, from: number): Promise<{ answers: Answer[]; wallMs: number; next: number }> {
  const answers: Answer[] = []
  const t0 = performance.now()
  const end = t0 + secs * 1000
  let n = from
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const a = await get(searchPath(n++))
      answers.push(a.status === 200 ? a : { ...a, body: a.body.slice(0, 200) })
    }
  }))
  return { answers, wallMs: performance.now() - t0, next: n }
}

/**
 * Open loop: a search is sent every 1/rate s whatever the answers, and timed from when it was due, so a
 * send held up behind the server's backlog counts against it (no coordinated omission).
 */
async function runAt(perSecond: number, secs: number, from: number): Promise<{ answers: Answer[]; wallMs: number; next: number }> {
  const answers: Answer[] = []
  const out: Promise<void>[] = []
  const t0 = performance.now()
  const total = Math.floor(perSecond * secs)
  const dueAt = (i: number) => t0 + (i * 1000) / perSecond
  for (let i = 0; i < total;) {
    for (const now = performance.now(); i < total && dueAt(i) <= now; i++) {
      const due = dueAt(i)
      out.push(get(searchPath(from + i)).then((a) => {
        answers.push({ ...a, ms: performance.now() - due, body: a.status === 200 ? '' : a.body.slice(0, 200) })
      }))
    }
    await new Promise((r) => setTimeout(r, 1))
  }
  await Promise.all(out)
  return { answers, wallMs: performance.now() - t0, next: from + total }
}

const warm = await run(Number(values['warm-seconds']), 1) // JIT, prepared statements, the query worker
const pid = server.pid!
const threads0 = threadCpu(pid)
const [http0, proc0, client0] = [cpuMs(pid, pid), cpuMs(pid), process.cpuUsage()]
const { answers, wallMs } = rate ? await runAt(rate, Number(values.seconds), warm.next) : await run(Number(values.seconds), warm.next)
const [httpMs, procMs] = [cpuMs(pid, pid) - http0, cpuMs(pid) - proc0]
const client = process.cpuUsage(client0)
const clientMs = (client.user + client.system) / 1000
// The threads that worked during the run (the scan and read threads, the encoder's, V8's, libuv's), ms per search.
const threadsPerSearch = busyThreads(pid, threads0, answers.length)
const rssMb = processMemoryMb(pid)
await closeClients()
stop()
await new Promise((r) => (server.exitCode === null ? server.once('exit', r) : r(null)))
rmSync(dataDir, { recursive: true, force: true })
clearTimeout(hardStop)

const ms = answers.map((a) => a.ms)
const round2 = (x: number) => Math.round(x * 100) / 100
const result = {
  bench: 'search-alone', client: clientKind, library: libraryDb, posts, questions: asked.length, loop: rate ? { open: rate } : { closed: concurrency }, seconds: Number(values.seconds), cores: cpus().length,
  semanticModel: settled.semanticModel, settleMs: settled.ms,
  searches: answers.length, perSecond: Math.round(answers.length / (wallMs / 1000)),
  p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), p99: quantile(ms, 0.99), max: round2(Math.max(...ms)),
  errors: answers.filter((a) => a.status !== 200).length, firstError: answers.find((a) => a.status !== 200)?.body ?? answers.find((a) => a.error)?.error,
  cpuMsPerSearch: { httpThread: round2(httpMs / answers.length), process: round2(procMs / answers.length), client: round2(clientMs / answers.length) },
  threadsCpuMsPerSearch: threadsPerSearch,
  httpThreadShare: round2(httpMs / wallMs), processCores: round2(procMs / wallMs), rssMb,
  loadAverage: { before: loadBefore, after: load() },
  targets: { perSecond: 500, p95: 50 },
}
process.stdout.write(JSON.stringify(result, null, 2) + '\n')
