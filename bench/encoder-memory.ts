/**
 * The server's memory through stage 3 (the sentence encoder) alone, on a library analysed before (a
 * data folder kept by `bench/pipeline-server.ts --keep`): a copy of it has its last job set back to
 * stage 2 done and its sentence vectors removed, so the server resumes that job at stage 3 when it
 * starts and the stage encodes and writes every post again, with search's sentence index growing from
 * empty as in the whole job (search's own word vectors are kept: an import makes those). While it runs
 * the bench asks for the list and search in turn, as pipeline-server.ts does. Every 5 s it prints the
 * server's memory by kind of map (smapsGroupsMb); it stops when stage 4 begins, or after --minutes.
 * Prints the server's CPU per post encoded and its memory at the start, the end and the peak.
 *   flock /work/bench.lock node bench/encoder-memory.ts --data-dir DIR [--minutes 6]
 * The server gets this process's environment (MALLOC_* settings to try, say).
 */
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { ENCODER_MODEL } from '../src-main/ai/local/sentence-encoder.ts'
import { BENCH_QUERIES, benchDataDir, cpuMs, processMemoryMb, quantile, serveKept, smapsGroupsMb } from './child-server.ts'

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, minutes: { type: 'string', default: '0' } } })
if (!values['data-dir']) throw new Error('--data-dir DIR (kept by bench/pipeline-server.ts --keep)')
const stopAfterMs = Number(values.minutes) * 60_000 || Infinity
const dataDir = await benchDataDir('encoder', undefined, join(values['data-dir'], 'sheaf.db'))
const sqlite = new Database(join(dataDir, 'sheaf.db'))
const jobId = sqlite.prepare('SELECT id FROM jobs ORDER BY rowid DESC LIMIT 1').pluck().get() as string
sqlite.prepare("UPDATE jobs SET status = 'running', stage = 'semantic_tagging', finished_at = NULL WHERE id = ?").run(jobId)
const posts = sqlite.prepare('UPDATE job_items SET done_stage = 2 WHERE job_id = ?').run(jobId).changes
sqlite.prepare('DELETE FROM embeddings WHERE model = ?').run(ENCODER_MODEL)
// The removals the delete recorded would be read by search at start; the whole job has none.
for (const table of ['embedding_removals', 'search_queue', 'search_fts_queue']) sqlite.prepare(`DELETE FROM ${table}`).run()
sqlite.close()

const startLoad = loadavg()[0]
const { server, get, poll } = await serveKept(dataDir)
type Job = { status: string; stage: string; current: number; total: number }
let job: Job | null = null
const inStage3 = () => job === null || (job.stage === 'semantic_tagging' && ['running', 'cancelling'].includes(job.status))
const t0 = performance.now()
const cpu0 = cpuMs(server.pid!)
let peakRss = 0
const samples: Array<{ s: number; done: number; cpuS: number; rss: number; groups: Record<string, number> }> = []
function sample(): void {
  const groups = smapsGroupsMb(server.pid!)
  if (!groups) return
  const s = { s: Math.round((performance.now() - t0) / 1000), done: job === null ? 0 : job.stage === 'semantic_tagging' ? job.current : posts, cpuS: cpuMs(server.pid!) / 1000, rss: processMemoryMb(server.pid!) ?? 0, groups }
  samples.push(s)
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s.s} s ${s.done} posts RSS ${s.rss} MB ${Object.entries(groups).map(([k, v]) => `${k}=${v}`).join(' ')} load ${loadavg()[0].toFixed(1)}\n`)
}
const sampler = setInterval(sample, 5000)
const rssSampler = setInterval(() => { peakRss = Math.max(peakRss, processMemoryMb(server.pid!) ?? 0) }, 250)
const poller = (async () => {
  while (inStage3() && performance.now() - t0 < stopAfterMs) {
    job = (JSON.parse((await poll('/api/categorize')).body) as { job: Job }).job
    await new Promise((r) => setTimeout(r, 200))
  }
})()
const during = { list: [] as number[], search: [] as number[] }
for (let i = 0; inStage3() && performance.now() - t0 < stopAfterMs; i++) {
  if (i % 2 === 0) during.list.push((await get(`/api/bookmarks?limit=20&page=${1 + (i % 50)}`)).ms)
  else during.search.push((await get(`/api/search/ai?q=${encodeURIComponent(BENCH_QUERIES[i % BENCH_QUERIES.length])}`)).ms)
  await new Promise((r) => setTimeout(r, 20))
}
await poller
const encoded = job!.stage === 'semantic_tagging' ? job!.current : posts
const cpu = cpuMs(server.pid!) - cpu0
const seconds = (performance.now() - t0) / 1000
sample()
clearInterval(sampler)
clearInterval(rssSampler)
const hwm = processMemoryMb(server.pid!, 'VmHWM')
server.kill('SIGKILL')
await new Promise((r) => server.once('exit', r))
rmSync(dataDir, { recursive: true, force: true })
const first = samples.find((s) => s.done > 0) ?? samples[0]
const last = samples.at(-1)!
process.stdout.write(JSON.stringify({
  bench: 'encoder-memory', posts, encoded, stageSeconds: Math.round(seconds), postsPerSecond: Math.round(encoded / seconds),
  serverCpuMsPerPost: Math.round((cpu / encoded) * 100) / 100,
  // From the first sample with posts encoded to the last: without the server's start.
  serverCpuMsPerPostSteady: Math.round(((last.cpuS - first.cpuS) * 1000 / Math.max(1, last.done - first.done)) * 100) / 100, peakRssMb: peakRss, vmHwmMb: hwm,
  firstSample: first, lastSample: last,
  arenasMbPerMinute: Math.round(((last.groups.arenas - first.groups.arenas) / Math.max(1, (last.s - first.s) / 60)) * 10) / 10,
  whileRunning: { listP95Ms: quantile(during.list, 0.95), searchP95Ms: quantile(during.search, 0.95), requests: during.list.length + during.search.length },
  loadAverage1m: { start: startLoad, end: loadavg()[0] },
}, null, 2) + '\n')
