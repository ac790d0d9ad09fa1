/**
 * The pipeline at scale with the server in its own process (`sheaf serve`), so the memory measured is
 * the server's alone. N generated posts are imported into the data folder first (the library's own
 * importer), then one job runs with no AI configured and media fetching off. While it runs the bench
 * asks for the list and for search by meaning in turn, over one kept-alive connection, and reads the
 * job's progress every 200 ms. When it is done and the search index has settled, it times search and
 * a post's detail (which carries its related posts). Prints one table, then the same as JSON, with the
 * server's memory by kind of map at each stage's peak and end (smapsMbByStage, sampled every 5 s).
 *   node bench/pipeline-server.ts [--posts 100000] [--rounds 300] [--keep] [--tail-seconds 20]
 * --tail-seconds: how long the server is left alone after the settled phase before its peak is read (the work due after a job).
 * --keep leaves the analysed library's data folder in place (its path is printed) for bench/settled-server.ts.
 */
import { existsSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createLibrary } from '../src-main/library/index.ts'
import { closeDatabase, openDatabase, searchIndexSegments } from '../src-main/store/index.ts'
import { sqliteOf } from '../src-main/store/db.ts'
import { worthMerging } from '../src-main/search/index-catch-up.ts'
import { BENCH_QUERIES, benchDataDir, busyThreads, cpuMs, keptAliveGet, processMemoryMb, quantile, signIn, smapsGroupsMb, spawnServer, threadCpu } from './child-server.ts'
import { iteratePosts, writeGraphqlBookmarks } from './generate-library.ts'

const { values } = parseArgs({ options: { posts: { type: 'string', default: '100000' }, rounds: { type: 'string', default: '300' }, keep: { type: 'boolean', default: false }, 'tail-seconds': { type: 'string', default: '20' } } })
const n = Number(values.posts)
const rounds = Number(values.rounds)
const file = join(tmpdir(), `sheaf-bench-graphql-${n}.json`)
if (!existsSync(file)) await writeGraphqlBookmarks(file, iteratePosts(n, 42))

let imported = 0
const dataDir = await benchDataDir('pipeline-server', async (db) => {
  imported = (await createLibrary({ db, clock: () => Date.UTC(2025, 11, 20) }).importFile(file)).imported
})
const server = spawnServer(dataDir)
process.on('exit', () => server.kill('SIGKILL'))
const { base, cookie } = await signIn(server)
process.stderr.write(`server at ${base}\n`)
const send = (path: string, method: string, body: unknown) =>
  fetch(base + path, { method, headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) })
await send('/api/settings', 'PUT', { fetchMedia: false, autoRunAfterImport: false })
const get = keptAliveGet(base, cookie)
process.stderr.write('signed in; starting the job\n')
// Its own connection, so reading progress never holds up a timed request.
const poll = keptAliveGet(base, cookie)

type Job = { status: string; stage: string; current: number; total: number; processed: number; errors: number }
let job: Job | null = null
const startLoad = loadavg()[0]
let peakRss = 0
const peakByStage = new Map<string, number>()
const rssSampler = setInterval(() => {
  const rss = processMemoryMb(server.pid!) ?? 0
  peakRss = Math.max(peakRss, rss)
  const stage = (job as Job | null)?.stage ?? 'before the job'
  peakByStage.set(stage, Math.max(peakByStage.get(stage) ?? 0, rss))
}, 250)
// Every 5 s the server's memory by kind of map: per stage, the sample with the most RSS and the last one.
type Groups = Record<string, number> & { rss: number }
const groupsByStage = new Map<string, { atPeak: Groups; last: Groups }>()
const smapsSampler = setInterval(() => {
  const groups = smapsGroupsMb(server.pid!)
  if (!groups) return
  const g = { rss: processMemoryMb(server.pid!) ?? 0, ...groups } as Groups
  const stage = (job as Job | null)?.stage ?? 'before the job'
  const seen = groupsByStage.get(stage)
  groupsByStage.set(stage, { atPeak: !seen || g.rss >= seen.atPeak.rss ? g : seen.atPeak, last: g })
}, 5000)

const jobStart = performance.now()
const started = await send('/api/categorize', 'POST', {})
if (started.status !== 200 && started.status !== 202) throw new Error(`start: ${started.status} ${await started.text()}`)
// Stage times from the job's own progress: when each stage was first seen, and how often its count moved.
const firstSeen = new Map<string, number>()
const cpuAt = new Map<string, number>()
const progressSteps = new Map<string, Set<number>>()
const during = { list: [] as number[], search: [] as number[], listByStage: new Map<string, number[]>() }
const finished = (j: Job | null) => j !== null && !['running', 'cancelling'].includes(j.status)
// A line on stderr at each stage and every minute, so a run stopped early still says how far it got.
let lastReport = performance.now()
function report(): void {
  lastReport = performance.now()
  const j = job as Job | null
  process.stderr.write(`${Math.round((performance.now() - jobStart) / 1000)} s: ${j?.stage} ${j?.current}/${j?.total}, server CPU ${(cpuMs(server.pid!) / 1000)} s, RSS ${processMemoryMb(server.pid!)} MB (peak ${peakRss}), list p95 ${quantile(during.list, 0.95)} ms, search p95 ${quantile(during.search, 0.95)} ms, load ${loadavg()[0].toFixed(1)}, monotonic ${process.hrtime.bigint() / 1000n} µs\n`)
}
setInterval(() => { if (performance.now() - lastReport > 60_000 && !finished(job)) report() }, 5000).unref()

const poller = (async () => {
  while (!finished(job)) {
    job = (JSON.parse((await poll('/api/categorize')).body) as { job: Job }).job
    if (!firstSeen.has(job.stage)) {
      firstSeen.set(job.stage, performance.now())
      cpuAt.set(job.stage, cpuMs(server.pid!) / 1000)
      report()
    }
    ;(progressSteps.get(job.stage) ?? progressSteps.set(job.stage, new Set()).get(job.stage)!).add(job.current)
    await new Promise((r) => setTimeout(r, 200))
  }
})()

const queries = BENCH_QUERIES
for (let i = 0; !finished(job); i++) {
  if (i % 2 === 0) {
    const ms = (await get(`/api/bookmarks?limit=20&page=${1 + (i % 50)}`)).ms
    during.list.push(ms)
    const stage = (job as Job | null)?.stage ?? 'entity_extraction'
    ;(during.listByStage.get(stage) ?? during.listByStage.set(stage, []).get(stage)!).push(ms)
  } else {
    during.search.push((await get(`/api/search/ai?q=${encodeURIComponent(queries[i % queries.length])}`)).ms)
  }
  await new Promise((r) => setTimeout(r, 20))
}
await poller
const jobSeconds = (performance.now() - jobStart) / 1000
const peakDuringJob = peakRss
const loadAtEnd = loadavg()[0]

// Settled: the search index has caught up with the new vectors (nothing left queued for 5 s) and the
// word index is merged (no longer worth merging), at most 10 min.
const db = openDatabase({ file: join(dataDir, 'sheaf.db') })
const pending = sqliteOf(db).prepare('SELECT (SELECT count(*) FROM search_fts_queue) + (SELECT count(*) FROM search_queue)').pluck()
const settleStart = performance.now()
for (let left = pending.get() as number, still = performance.now(), last = -1; left > 0 && performance.now() - settleStart < 600_000; left = pending.get() as number) {
  if (left !== last) { last = left; still = performance.now() } else if (performance.now() - still > 5000) break
  await new Promise((r) => setTimeout(r, 250))
}
while (worthMerging(searchIndexSegments(db)) && performance.now() - settleStart < 600_000) await new Promise((r) => setTimeout(r, 250))
const ids = sqliteOf(db).prepare('SELECT bookmark_id FROM knowledge ORDER BY bookmark_id').pluck().all() as number[]
const settledAfterSeconds = Math.round(((performance.now() - jobStart) / 1000 - jobSeconds) * 10) / 10
const wordTreesBefore = searchIndexSegments(db)
const settled = { search: [] as number[], related: [] as number[], relatedFound: 0 }
await get(`/api/search/ai?q=${encodeURIComponent(queries[0])}`)
const settledThreads = threadCpu(server.pid!)
for (let i = 0; i < rounds; i++) {
  // Each question once with a new word, so the encoder's cache of recent questions does not answer it.
  settled.search.push((await get(`/api/search/ai?q=${encodeURIComponent(`${queries[i % queries.length]} ${i}`)}`)).ms)
  const r = await get(`/api/bookmarks/${ids[(i * 7919) % ids.length]}`)
  settled.related.push(r.ms)
  if ((JSON.parse(r.body) as { knowledge: { relatedIds: number[] } | null }).knowledge?.relatedIds.length) settled.relatedFound++
}
// Server CPU by thread per round of the settled phase (one search and one post), and the word index's b-trees then.
const settledCpu = busyThreads(server.pid!, settledThreads, rounds)
const wordTreesAfter = searchIndexSegments(db)
// What the server does once the job is over and searched (the word index read into memory again, merges) falls in these seconds.
const settledHwm = processMemoryMb(server.pid!, 'VmHWM')
const tailSeconds = Number(values['tail-seconds'])
await new Promise((r) => setTimeout(r, tailSeconds * 1000))
closeDatabase(db)
clearInterval(rssSampler)
clearInterval(smapsSampler)
const peakHwm = processMemoryMb(server.pid!, 'VmHWM')
server.kill('SIGTERM')
await new Promise((r) => server.once('exit', r))
if (values.keep) process.stderr.write(`kept the analysed library in ${dataDir}\n`)
else rmSync(dataDir, { recursive: true, force: true })

const order = ['entity_extraction', 'vision_analysis', 'semantic_tagging', 'categorization', 'complete']
const stages = order.slice(0, -1).map((s, i) => {
  const begin = firstSeen.get(s)
  const end = order.slice(i + 1).map((x) => firstSeen.get(x)).find((t) => t !== undefined) ?? (performance.now())
  const seconds = begin === undefined ? 0 : (end - begin) / 1000
  const cpuEnd = order.slice(i + 1).map((x) => cpuAt.get(x)).find((t) => t !== undefined)
  // The server's CPU time over the stage (every thread): on two cores of its own it needs at least half of it.
  const cpuMsPerPost = cpuEnd === undefined || !cpuAt.has(s) ? null : Math.round(((cpuEnd - cpuAt.get(s)!) * 1000 / n) * 10) / 10
  return { stage: s, cpuMsPerPost, seconds: Math.round(seconds * 10) / 10, postsPerSecond: seconds > 0 ? Math.round(n / seconds) : null, progressSteps: progressSteps.get(s)?.size ?? 0 }
})
const p95 = (xs: number[]) => quantile(xs, 0.95)
const result = {
  bench: 'pipeline-server', posts: n, imported, job: { status: (job as Job | null)?.status, processed: (job as Job | null)?.processed, errors: (job as Job | null)?.errors, seconds: Math.round(jobSeconds) },
  stages,
  whileRunning: {
    list: { requests: during.list.length, p50Ms: quantile(during.list, 0.5), p95Ms: p95(during.list) },
    listP95ByStage: Object.fromEntries([...during.listByStage].map(([s, xs]) => [s, p95(xs)])),
    search: { requests: during.search.length, p50Ms: quantile(during.search, 0.5), p95Ms: p95(during.search) },
  },
  settled: {
    search: { requests: settled.search.length, p50Ms: quantile(settled.search, 0.5), p95Ms: p95(settled.search) },
    postWithRelated: { requests: settled.related.length, p50Ms: quantile(settled.related, 0.5), p95Ms: p95(settled.related), withRelated: settled.relatedFound },
    startedSecondsAfterTheJob: settledAfterSeconds, cpuMsPerRoundByThread: settledCpu, wordIndexTrees: { before: wordTreesBefore, after: wordTreesAfter },
  },
  serverRssMb: { peakSampledDuringJob: peakDuringJob, peakSampled: peakRss, vmHwm: peakHwm, peakSampledByStage: Object.fromEntries(peakByStage) },
  smapsMbByStage: Object.fromEntries(groupsByStage),
  loadAverage1m: { start: startLoad, end: loadAtEnd },
}
const encoder = stages.find((s) => s.stage === 'semantic_tagging')!
const row = (what: string, value: string, target: string) => `| ${what} | ${value} | ${target} |`
process.stdout.write([
  `| ${n.toLocaleString('en')} posts, server in its own process | measured | target |`, '|---|---|---|',
  row('encoder stage (semantic_tagging), wall', `${(encoder.seconds / 60).toFixed(1)} min (${encoder.postsPerSecond} posts/s, ${encoder.progressSteps} progress steps seen)`, '≤ 20 min'),
  row('encoder stage, server CPU (all threads)', `${encoder.cpuMsPerPost} ms per post: ${((encoder.cpuMsPerPost ?? 0) * 100_000 / 2 / 60_000).toFixed(1)} min per 100,000 on two free cores`, ''),
  ...stages.filter((s) => s !== encoder).map((s) => row(`${s.stage}, wall`, `${s.postsPerSecond ?? '—'} posts/s`, '≥ 1,000 posts/s')),
  row('list p95 while it runs', `${p95(during.list)} ms (${during.list.length} requests)`, '< 50 ms'),
  row('search p95 while it runs', `${p95(during.search)} ms (${during.search.length} requests)`, '< 100 ms'),
  row('server peak RSS (VmHWM)', `${peakHwm} MB (sampled, by stage: ${[...peakByStage].map(([s, mb]) => `${s} ${mb}`).join(', ')}; ${settledHwm} when the settled phase ended, ${tailSeconds} s before)`, '< 700 MB'),
  row('settled: search p95', `${p95(settled.search)} ms (started ${settledAfterSeconds} s after the job; word index b-trees ${wordTreesBefore.length} → ${wordTreesAfter.length})`, '< 30 ms'),
  row('settled: a post with its related posts, p95', `${p95(settled.related)} ms (${settled.relatedFound}/${settled.related.length} had related posts)`, '< 20 ms'),
  row('load average (1 min) at start / end', `${startLoad.toFixed(1)} / ${loadAtEnd.toFixed(1)}`, ''),
].join('\n') + '\n\n' + JSON.stringify(result, null, 2) + '\n')
