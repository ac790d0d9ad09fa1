/**
 * A busy household, on loopback: a `sheaf serve` process holding a --library-post library takes a
 * --import-post import and runs the pipeline while clients send --rate requests per second for
 * --seconds (the mix: list, list with q, stats, search), open loop (a slow answer does not slow the
 * senders). Then, with the import done and the pipeline cancelled, the same rate once the library
 * has settled; then search alone, closed loop with --concurrency clients, for --search-seconds.
 * Reports latency percentiles, errors, connection resets, time-outs and the server's peak RSS
 * (sampled every 100 ms). Bounded: it stops itself after --max-seconds whatever happens.
 * Targets (issue 14): under load p95 < 100 ms, p99 < 250 ms, no error or reset; settled p95 < 15 ms;
 * search alone >= 500 requests/s with p95 < 50 ms (at 100,000 posts); RSS < 700 MB throughout.
 * Prints a Markdown table, then one JSON object.
 * Usage: node bench/load.ts [--library 20000] [--import 10000] [--rate 200] [--seconds 30]
 *        [--settled-seconds 15] [--search-seconds 10] [--concurrency 16] [--max-seconds 600]
 *        [--no-import] [--no-pipeline]   (to see which of the two costs what)
 *        [--mix list,list q,stats,search]   (the kinds of request sent, in turn)
 *        [--threads]   (the server's threads' CPU in the busy phase, by group: bench/thread-split.ts)
 *        [--v8-pool-size 4]   (the server's V8 platform workers, through NODE_OPTIONS)
 *        [--worker-nice 19]   (SHEAF_WORKER_NICE for the server: 0 leaves its workers at normal priority)
 *        [--library-db FILE]   (a library built by bench/search-latency.ts --db FILE, copied in instead of
 *                               imported over HTTP: minutes less at 100,000 posts, with the index already caught up)
 * Beside the latencies, each phase's CPU time (less disturbed by other load than wall times): the
 * HTTP thread's per request and as a share of the phase, and the whole server process's.
 */
import { createReadStream, existsSync, rmSync, statSync } from 'node:fs'
import http from 'node:http'
import { tmpdir, loadavg, cpus } from 'node:os'
import { basename, join } from 'node:path'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { createLibrary } from '../src-main/library/index.ts'
import { iteratePosts, writeGraphqlBookmarks } from './generate-library.ts'
import { benchDataDir, cpuMs, processMemoryMb, signIn, spawnServer } from './child-server.ts'
import { sqliteOf } from '../src-main/store/db.ts'
import { sampleThreadSplit, threadSplitLines } from './thread-split.ts'

const { values } = parseArgs({ options: {
  library: { type: 'string', default: '20000' }, import: { type: 'string', default: '10000' }, rate: { type: 'string', default: '200' },
  seconds: { type: 'string', default: '30' }, 'settled-seconds': { type: 'string', default: '15' }, 'search-seconds': { type: 'string', default: '10' },
  concurrency: { type: 'string', default: '16' }, 'no-pipeline': { type: 'boolean', default: false }, 'no-import': { type: 'boolean', default: false },
  mix: { type: 'string', default: 'list,list q,stats,search' }, 'max-seconds': { type: 'string', default: '600' }, settle: { type: 'string', default: '90' },
  'worker-nice': { type: 'string' }, 'library-db': { type: 'string' }, threads: { type: 'boolean', default: false }, 'v8-pool-size': { type: 'string' },
} })
const libraryPosts = Number(values.library)
const importPosts = Number(values.import)
const rate = Number(values.rate)
const seconds = Number(values.seconds)
const settledSeconds = Number(values['settled-seconds'])
const searchSeconds = Number(values['search-seconds'])
const concurrency = Number(values.concurrency)
const settleCap = Number(values.settle)

const startedAt = Date.now()
const load = { before: loadavg().map((x) => Math.round(x * 100) / 100), cores: cpus().length }

// --- data: the library and the import are different posts (different seeds) -------------------------
const libraryFile = join(tmpdir(), `sheaf-bench-graphql-${libraryPosts}.json`)
const importFile = join(tmpdir(), `sheaf-bench-graphql-${importPosts}-seed7.json`)
if (!existsSync(libraryFile)) await writeGraphqlBookmarks(libraryFile, iteratePosts(libraryPosts, 42))
if (!existsSync(importFile)) await writeGraphqlBookmarks(importFile, iteratePosts(importPosts, 7))

const libraryDb = values['library-db']
// What the library does in the background after an import (duplicate keys) is done before the server starts, as the settle after an import would.
const dataDir = await benchDataDir('load', libraryDb ? async (db) => {
  const library = createLibrary({ db, clock: Date.now })
  while ((sqliteOf(db).prepare('SELECT count(*) FROM post_keys_queue').pluck().get() as number) > 0) await new Promise((r) => setTimeout(r, 100))
  library.close()
} : undefined, libraryDb)
const spawnedAt = performance.now()
const server = spawnServer(dataDir, {
  env: {
    ...(values['worker-nice'] !== undefined ? { SHEAF_WORKER_NICE: values['worker-nice'] } : {}),
    ...(values['v8-pool-size'] !== undefined ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --v8-pool-size=${values['v8-pool-size']}`.trim() } : {}),
  },
})
const stopServer = () => { if (server.exitCode === null) server.kill('SIGTERM') }
const hardStop = setTimeout(() => {
  process.stderr.write(`load bench: --max-seconds ${values['max-seconds']} passed; stopping\n`)
  stopServer()
  rmSync(dataDir, { recursive: true, force: true })
  process.exit(2)
}, Number(values['max-seconds']) * 1000)
hardStop.unref()

const { base, cookie } = await signIn(server)
if (!/^http:\/\/127\./.test(base)) throw new Error(`the bench runs on loopback only (server at ${base})`)

let peakRss = 0
const rss = () => processMemoryMb(server.pid!) ?? 0
const sampler = setInterval(() => { try { peakRss = Math.max(peakRss, rss()) } catch { /* exited */ } }, 100)

/** Uploads a file as the multipart part `file`, streamed from disk, with node:http. */
function upload(file: string): Promise<{ status: number; body: any; ms: number }> {
  const boundary = 'sheafload' + Date.now()
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${basename(file)}"\r\nContent-Type: application/json\r\n\r\n`)
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  const t0 = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/api/import`, {
      method: 'POST',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + statSync(file).size + tail.length },
    }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (d: string) => { text += d }).on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), ms: performance.now() - t0 }))
    })
    req.on('error', reject)
    req.write(head)
    const s = createReadStream(file, { highWaterMark: 1 << 20 })
    s.on('end', () => req.end(tail))
    s.pipe(req, { end: false })
  })
}

// With a `timeout`, node:http's agent honours the server's `Keep-Alive: timeout=5` (it lets a free
// socket go a second before); without one it keeps free sockets until the server closes them, and a
// request sent as that close crosses it is reset: the client's race, not the server's.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 30_000 })
type Outcome = { ms: number; status: number; error?: string; detail?: string }
/** When each socket last finished a response: a reset says how long its socket had been idle. */
const lastUsed = new WeakMap<object, number>()
function get(path: string, timeoutMs = 30_000): Promise<Outcome> {
  const t0 = performance.now()
  return new Promise((resolve) => {
    const req = http.get(base + path, { agent, headers: { cookie } }, (res) => {
      res.resume().on('end', () => {
        lastUsed.set(req.socket!, performance.now())
        resolve({ ms: performance.now() - t0, status: res.statusCode ?? 0 })
      }).on('error', (e: NodeJS.ErrnoException) => resolve({ ms: performance.now() - t0, status: 0, error: e.code ?? e.message }))
    })
    let idleMs = -1
    req.once('socket', (s) => { const at = lastUsed.get(s); idleMs = at === undefined ? -1 : Math.round(t0 - at) })
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })))
    req.on('error', (e: NodeJS.ErrnoException) => resolve({
      ms: performance.now() - t0, status: 0, error: e.code ?? e.message,
      detail: `${e.code ?? e.message} after ${Math.round(performance.now() - t0)} ms on a ${req.reusedSocket ? `reused socket idle ${idleMs} ms` : 'new socket'}`,
    }))
  })
}

const words = ['sqlite', 'react', 'agents', 'sourdough', 'typography', 'fusion', 'indexes', 'espresso', 'benchmarks', 'layout']
const queries = ['posts about sqlite indexes', 'sourdough baking tips', 'react performance', 'climate models', 'espresso at home', 'design tokens in figma', 'agents and evals', 'fusion energy news']
const MIX = [
  (i: number) => `/api/bookmarks?page=${1 + (i % 5)}`,
  (i: number) => `/api/bookmarks?q=${words[i % words.length]}`,
  () => '/api/stats',
  (i: number) => `/api/search/ai?q=${encodeURIComponent(queries[i % queries.length])}`,
]
const KINDS = ['list', 'list q', 'stats', 'search']
const mix = values.mix!.split(',').map((k) => KINDS.indexOf(k.trim()))
if (mix.some((k) => k < 0)) throw new Error(`--mix takes ${KINDS.join(', ')} (got ${values.mix})`)

interface Cpu { httpMsPerRequest: number; httpShare: number; processMs: number }
interface Summary { p95BySecond?: number[]; failures?: string[]; requests: number; ok: number; errors: number; resets: number; timeouts: number; p50: number; p95: number; p99: number; max: number; perSecond: number; byKind: Record<string, { p50: number; p95: number }>; cpu?: Cpu }
const pct = (xs: number[], q: number) => {
  if (xs.length === 0) return 0
  const s = [...xs].sort((a, b) => a - b)
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 10) / 10
}
/** p95 of the requests sent in each second of an open-loop phase: when its queues formed. */
const bySecond = (out: { ms: number; second?: number }[]): number[] => {
  const seconds: number[][] = []
  for (const o of out) if (o.second !== undefined) (seconds[o.second] ??= []).push(o.ms)
  return Array.from(seconds, (xs) => Math.round(pct(xs ?? [], 0.95)))
}
function summarise(out: (Outcome & { kind: string; second?: number })[], wallMs: number): Summary {
  const ms = out.map((o) => o.ms)
  const byKind: Summary['byKind'] = {}
  for (const k of new Set(out.map((o) => o.kind))) {
    const xs = out.filter((o) => o.kind === k).map((o) => o.ms)
    byKind[k] = { p50: pct(xs, 0.5), p95: pct(xs, 0.95) }
  }
  return {
    requests: out.length,
    ok: out.filter((o) => o.status === 200).length,
    errors: out.filter((o) => o.status !== 200 && !o.error).length,
    resets: out.filter((o) => o.error && o.error !== 'TIMEOUT').length,
    timeouts: out.filter((o) => o.error === 'TIMEOUT').length,
    p50: pct(ms, 0.5), p95: pct(ms, 0.95), p99: pct(ms, 0.99), max: Math.round(Math.max(0, ...ms)),
    perSecond: Math.round(out.length / (wallMs / 1000)),
    byKind,
    p95BySecond: bySecond(out),
    failures: out.filter((o) => o.error).map((o) => `${o.kind}: ${o.detail ?? o.error}`),
  }
}

/** The server's CPU time over a phase: its HTTP (main) thread per request and as a share of the wall time, and the whole process. */
async function withCpu(phase: () => Promise<Summary>): Promise<Summary> {
  const pid = server.pid!
  const [http0, proc0, t0] = [cpuMs(pid, pid), cpuMs(pid), performance.now()]
  const s = await phase()
  const [http, proc, wall] = [cpuMs(pid, pid) - http0, cpuMs(pid) - proc0, performance.now() - t0]
  return { ...s, cpu: { httpMsPerRequest: Math.round((http / Math.max(1, s.requests)) * 100) / 100, httpShare: Math.round((http / wall) * 100) / 100, processMs: proc } }
}

/** Open loop: one request every 1000/rate ms whatever the answers do; waits for the stragglers. */
async function openLoop(kinds: number[], secs: number): Promise<Summary> {
  const out: (Outcome & { kind: string; second: number })[] = []
  const pending: Promise<void>[] = []
  const t0 = performance.now()
  const total = Math.round(rate * secs)
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate
    const wait = due - performance.now()
    if (wait > 1) await new Promise((r) => setTimeout(r, wait))
    const k = kinds[i % kinds.length]
    pending.push(get(MIX[k](i)).then((o) => { out.push({ ...o, kind: KINDS[k], second: Math.floor((due - t0) / 1000) }) }))
  }
  await Promise.all(pending)
  return summarise(out, performance.now() - t0)
}

/** Closed loop: `concurrency` clients, each sending its next request when the last is answered. */
async function closedLoop(kind: number, secs: number): Promise<Summary> {
  const out: (Outcome & { kind: string })[] = []
  const t0 = performance.now()
  const end = t0 + secs * 1000
  let i = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const n = i++
      out.push({ ...(await get(MIX[kind](n))), kind: KINDS[kind] })
    }
  }))
  return summarise(out, performance.now() - t0)
}

/** Read-only, without migrations or a closing checkpoint: a TRUNCATE checkpoint here held the server's writers for seconds. */
const pendingIndex = () => {
  const client = new Database(join(dataDir, 'sheaf.db'), { readonly: true, fileMustExist: true })
  try {
    return client.prepare('SELECT (SELECT count(*) FROM search_fts_queue) + (SELECT count(*) FROM search_queue)').pluck().get() as number
  } finally {
    client.close()
  }
}
/** Until the search index has caught up (or stopped moving for 5 s, or `cap` s passed). */
async function settle(cap: number): Promise<{ ms: number; pending: number }> {
  const t0 = performance.now()
  let last = -1
  let still = t0
  for (let left = pendingIndex(); left > 0 && performance.now() - t0 < cap * 1000; left = pendingIndex()) {
    if (left !== last) { last = left; still = performance.now() } else if (performance.now() - still > 5000) break
    await new Promise((r) => setTimeout(r, 500))
  }
  return { ms: Math.round(performance.now() - t0), pending: pendingIndex() }
}

// 1. The library.
const seed = libraryDb ? { status: 200, body: null } : await upload(libraryFile)
if (seed.status !== 200) throw new Error(`library import failed: ${JSON.stringify(seed.body)}`)
const seedSettle = await settle(settleCap)
const rssLibrary = rss()

// 2. Under load: the import and the pipeline start, and the clients send the mix.
const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) })
const importRun = values['no-import'] ? Promise.resolve({ status: 0, body: { imported: 0 }, ms: 0 }) : upload(importFile)
const job = values['no-pipeline'] ? { jobId: '', totalBookmarks: 0 } : await (await post('/api/categorize', {})).json() as { jobId: string; totalBookmarks: number }
const sinceSpawn = () => Math.round((performance.now() - spawnedAt) / 100) / 10
const busyFrom = sinceSpawn()
const threadSampler = values.threads ? sampleThreadSplit(server.pid!, [[0, 4], [4, 15], [15, seconds]], Number(values['v8-pool-size'] ?? 4)) : null
const busy = await withCpu(() => openLoop(mix, seconds))
const threads = threadSampler?.stop()
const busyTo = sinceSpawn()
const imported = await importRun
const loadAfter = loadavg().map((x) => Math.round(x * 100) / 100)

// 3. Settled: the pipeline cancelled, the index caught up.
await post('/api/categorize/cancel', {})
const afterSettle = await settle(settleCap)
const settledFrom = sinceSpawn()
const settled = await withCpu(() => openLoop(mix, settledSeconds))
const settledTo = sinceSpawn()

// 4. Search alone.
const searchAlone = await withCpu(() => closedLoop(3, searchSeconds))

clearInterval(sampler)
const rssEnd = rss()
stopServer()
await new Promise((r) => server.exitCode === null ? server.once('exit', r) : r(null))
rmSync(dataDir, { recursive: true, force: true })
clearTimeout(hardStop)

const row = (name: string, s: Summary) =>
  `| ${name} | ${s.requests} | ${s.perSecond} | ${s.p50} | ${s.p95} | ${s.p99} | ${s.max} | ${s.errors} | ${s.resets} | ${s.timeouts} | ${s.cpu?.httpMsPerRequest} | ${s.cpu?.httpShare} | ${s.cpu?.processMs} |`
const kinds = (s: Summary) => Object.entries(s.byKind).map(([k, v]) => `${k} ${v.p50}/${v.p95}`).join(', ')
const table = [
  `Load bench (worker nice ${values['worker-nice'] ?? 'default'}, V8 pool size ${values['v8-pool-size'] ?? 'default'}): ${libraryPosts} posts, import of ${importPosts} (${imported.ms.toFixed(0)} ms, ${imported.body.imported} new), pipeline job of ${job.totalBookmarks}; ${rate} req/s for ${seconds} s of ${values.mix}; ${load.cores} cores, load average before ${load.before.join(' ')}, after the busy phase ${loadAfter.join(' ')}`,
  '',
  '| phase | requests | req/s | p50 ms | p95 ms | p99 ms | max ms | errors | resets | time-outs | HTTP-thread CPU ms/request | HTTP-thread CPU share | process CPU ms |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  row('import + pipeline + mix', busy),
  row('settled, mix', settled),
  row(`search alone (${concurrency} clients)`, searchAlone),
  '',
  `p50/p95 by kind, busy: ${kinds(busy)}`,
  `p50/p95 by kind, settled: ${kinds(settled)}`,
  `busy p95 ms by second sent: ${busy.p95BySecond?.join(' ')}`,
  `settled p95 ms by second sent: ${settled.p95BySecond?.join(' ')}`,
  ...[['busy', busy], ['settled', settled], ['search alone', searchAlone]].flatMap(([name, s]) =>
    (s as Summary).failures?.length ? [`failed, ${name}: ${(s as Summary).failures!.join('; ')}`] : []),
  ...(threads ? threadSplitLines(threads) : []),
  `server RSS: ${rssLibrary} MB with the library, peak ${peakRss} MB, ${rssEnd} MB at the end (sampled every 100 ms)`,
  `busy phase from ${busyFrom} s to ${busyTo} s, settled phase from ${settledFrom} s to ${settledTo} s after the server was started (for bench/profile-stretches.ts --from --to)`,
  `search index: settled ${seedSettle.ms} ms after the library import (${seedSettle.pending} left), ${afterSettle.ms} ms after the busy phase (${afterSettle.pending} left)`,
  '',
].join('\n')
process.stdout.write(table + '\n')
process.stdout.write(JSON.stringify({
  bench: 'load', libraryPosts, importPosts, rate, seconds, load: { ...load, afterBusy: loadAfter },
  import: { ms: Math.round(imported.ms), status: imported.status, imported: imported.body.imported }, pipelineJob: job,
  busy, threads, settled, searchAlone, rssMb: { library: rssLibrary, peak: peakRss, end: rssEnd }, settle: { library: seedSettle, afterBusy: afterSettle },
  targets: { busyP95: 100, busyP99: 250, settledP95: 15, searchPerSecond: 500, searchP95: 50, rssMb: 700 },
  busyPhaseS: [busyFrom, busyTo], settledPhaseS: [settledFrom, settledTo], elapsedS: Math.round((Date.now() - startedAt) / 1000),
}, null, 2) + '\n')
