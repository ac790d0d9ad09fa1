/**
 * The server's memory through stage 4 (categorization, related posts, near-duplicates) alone, on a
 * library analysed before (a data folder kept by `bench/pipeline-server.ts --keep`): a copy of it has
 * its last job set back to stage 3 done and the pipeline's categories removed, so the server resumes that job
 * at stage 4 when it starts and the stage writes every post's categories, as in the whole job. While
 * it runs the bench asks for the list and search in turn, as pipeline-server.ts does; then 60 settled
 * searches. Prints the server's peak RSS during the stage and after it (sampled every 250 ms) and VmHWM.
 * `--keep` leaves the copy (its path on stderr), e.g. to compare what the stage wrote with bench/related-same.ts.
 *   flock /work/bench.lock node bench/stage4-memory.ts --data-dir DIR [--keep]
 */
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { BENCH_QUERIES, benchDataDir, cpuMs, processMemoryMb, quantile, serveKept } from './child-server.ts'

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, keep: { type: 'boolean', default: false } } })
if (!values['data-dir']) throw new Error('--data-dir DIR (kept by bench/pipeline-server.ts --keep)')
const dataDir = await benchDataDir('stage4', undefined, join(values['data-dir'], 'sheaf.db'))
const sqlite = new Database(join(dataDir, 'sheaf.db'))
const jobId = sqlite.prepare('SELECT id FROM jobs ORDER BY rowid DESC LIMIT 1').pluck().get() as string
sqlite.prepare("UPDATE jobs SET status = 'running', stage = 'semantic_tagging', finished_at = NULL WHERE id = ?").run(jobId)
const posts = sqlite.prepare('UPDATE job_items SET done_stage = 3 WHERE job_id = ?').run(jobId).changes
// As after stage 3 of a job: no pipeline categories, so the stage writes every post's (categories are
// words in the word index, and each write re-queues the post for it). Written again unchanged, they
// re-queued nothing, and the word index's catch-up that a job's stage 4 pays for was missing here.
// The word index keeps the old categories' words: the catch-up removes and adds a post's words all the same.
sqlite.prepare("DELETE FROM bookmark_categories WHERE assigned_by = 'pipeline'").run()
sqlite.prepare('DELETE FROM search_fts_queue').run()
sqlite.close()

const startLoad = loadavg()[0]
const { server, get, poll } = await serveKept(dataDir)
type Job = { status: string; stage: string; current: number; total: number }
let job: Job | null = null
let phase = 'stage 4'
const peak = new Map<string, number>()
const sampler = setInterval(() => {
  const rss = processMemoryMb(server.pid!) ?? 0
  peak.set(phase, Math.max(peak.get(phase) ?? 0, rss))
}, 250)
const finished = () => job !== null && !['running', 'cancelling'].includes(job.status)
const t0 = performance.now()
const cpu0 = cpuMs(server.pid!)
process.stderr.write(`stage 4 from monotonic ${process.hrtime.bigint() / 1000n} µs\n`)
const during = { list: [] as number[], search: [] as number[] }
const poller = (async () => {
  while (!finished()) {
    job = (JSON.parse((await poll('/api/categorize')).body) as { job: Job }).job
    await new Promise((r) => setTimeout(r, 200))
  }
})()
for (let i = 0; !finished(); i++) {
  if (i % 2 === 0) during.list.push((await get(`/api/bookmarks?limit=20&page=${1 + (i % 50)}`)).ms)
  else during.search.push((await get(`/api/search/ai?q=${encodeURIComponent(BENCH_QUERIES[i % BENCH_QUERIES.length])}`)).ms)
  await new Promise((r) => setTimeout(r, 20))
}
await poller
const stageCpuMs = cpuMs(server.pid!) - cpu0
process.stderr.write(`stage 4 done at monotonic ${process.hrtime.bigint() / 1000n} µs\n`)
const seconds = (performance.now() - t0) / 1000
phase = 'after'
const settled: number[] = []
for (let i = 0; i < 60; i++) settled.push((await get(`/api/search/ai?q=${encodeURIComponent(`${BENCH_QUERIES[i % BENCH_QUERIES.length]} ${i}`)}`)).ms)
await new Promise((r) => setTimeout(r, 3000))
clearInterval(sampler)
const hwm = processMemoryMb(server.pid!, 'VmHWM')
const rssEnd = processMemoryMb(server.pid!)
server.kill('SIGTERM')
await new Promise((r) => server.once('exit', r))
if (values.keep) process.stderr.write(`kept ${dataDir}\n`)
else rmSync(dataDir, { recursive: true, force: true })
process.stdout.write(JSON.stringify({
  bench: 'stage4-memory', posts, job: job!.status, stageSeconds: Math.round(seconds), postsPerSecond: Math.round(posts / seconds), serverCpuMsPerPost: Math.round((stageCpuMs / posts) * 100) / 100,
  peakRssMb: Object.fromEntries(peak), vmHwmMb: hwm, rssAtEndMb: rssEnd,
  whileRunning: { listP95Ms: quantile(during.list, 0.95), searchP95Ms: quantile(during.search, 0.95), requests: during.list.length + during.search.length },
  settledSearchP95Ms: quantile(settled, 0.95), loadAverage1m: { start: startLoad, end: loadavg()[0] },
}, null, 2) + '\n')
