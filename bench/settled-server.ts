/**
 * A settled, analysed library served as users meet it after a restart: `sheaf serve` in its own process
 * on a data folder kept by `bench/pipeline-server.ts --keep`. It waits until search by meaning answers
 * with the sentence model, then times searches (each question once, with a new word, so no cached
 * vector answers it) and posts with their related posts, one at a time over one kept-alive
 * connection, and samples the server's memory throughout. Prints one table, then the same as JSON.
 *   node bench/settled-server.ts --data-dir DIR [--rounds 300]
 */
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { closeDatabase, openDatabase, searchIndexSegments } from '../src-main/store/index.ts'
import { sqliteOf } from '../src-main/store/db.ts'
import { BENCH_QUERIES, busyThreads, keptAliveGet, processMemoryMb, quantile, signIn, spawnServer, threadCpu } from './child-server.ts'

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, rounds: { type: 'string', default: '300' } } })
if (!values['data-dir']) throw new Error('usage: node bench/settled-server.ts --data-dir DIR [--rounds 300]')
const rounds = Number(values.rounds)
const startLoad = loadavg()[0]
const server = spawnServer(values['data-dir'])
process.on('exit', () => server.kill('SIGKILL'))
const { base, cookie } = await signIn(server)
const get = keptAliveGet(base, cookie)
let peakRss = 0
const sampler = setInterval(() => (peakRss = Math.max(peakRss, processMemoryMb(server.pid!) ?? 0)), 100)

const started = performance.now()
let model = ''
while (model !== 'use-lite-512') {
  if (performance.now() - started > 300_000) throw new Error(`search by meaning never used the sentence model (last: ${model})`)
  model = (JSON.parse((await get(`/api/search/ai?q=${encodeURIComponent(BENCH_QUERIES[0])}`)).body) as { semanticModel: string }).semanticModel
  await new Promise((r) => setTimeout(r, 200))
}
const readySeconds = (performance.now() - started) / 1000
const db = openDatabase({ file: join(values['data-dir'], 'sheaf.db') })
const ids = sqliteOf(db).prepare('SELECT bookmark_id FROM knowledge ORDER BY bookmark_id').pluck().all() as number[]
const wordTreesBefore = searchIndexSegments(db)
const search: number[] = []
const related: number[] = []
const threads0 = threadCpu(server.pid!)
for (let i = 0; i < rounds; i++) {
  search.push((await get(`/api/search/ai?q=${encodeURIComponent(`${BENCH_QUERIES[i % BENCH_QUERIES.length]} ${i}`)}`)).ms)
  related.push((await get(`/api/bookmarks/${ids[(i * 7919) % ids.length]}`)).ms)
}
clearInterval(sampler)
const cpuMsPerRoundByThread = busyThreads(server.pid!, threads0, rounds)
const wordIndexTrees = { before: wordTreesBefore, after: searchIndexSegments(db) }
closeDatabase(db)
const result = {
  readySeconds: Math.round(readySeconds * 10) / 10,
  search: { requests: search.length, p50Ms: quantile(search, 0.5), p95Ms: quantile(search, 0.95) },
  postWithRelated: { requests: related.length, p50Ms: quantile(related, 0.5), p95Ms: quantile(related, 0.95) },
  serverRssMb: { end: processMemoryMb(server.pid!), peakSampled: peakRss, vmHwm: processMemoryMb(server.pid!, 'VmHWM') },
  cpuMsPerRoundByThread,
  wordIndexTrees,
  loadAverage1m: { start: startLoad, end: loadavg()[0] },
}
server.kill('SIGTERM')
console.log(`settled library: search by meaning ready after ${result.readySeconds} s
search p50 / p95: ${result.search.p50Ms} / ${result.search.p95Ms} ms (${rounds} questions)
post with related posts p50 / p95: ${result.postWithRelated.p50Ms} / ${result.postWithRelated.p95Ms} ms
server CPU per round (one search, one post) by thread: ${cpuMsPerRoundByThread}
word index b-trees (leaf pages) before / after: ${wordIndexTrees.before.join(' ')} / ${wordIndexTrees.after.join(' ')}
server RSS: ${result.serverRssMb.end} MB at the end, ${result.serverRssMb.vmHwm} MB at most (VmHWM)
load average: ${startLoad.toFixed(1)} → ${result.loadAverage1m.end.toFixed(1)}`)
console.log(JSON.stringify(result, null, 2))
