/**
 * What a server's start costs on a library: a `sheaf serve` child over a copy of `--db` (by default the
 * generated 100,000-post library with the sentence encoder's vectors), left alone after signing in
 * (its own warm-up searches run, nothing else): the HTTP thread's and the process's CPU in the first
 * `--marks` seconds after the spawn, the RSS at each mark and the peak (VmHWM), then one search
 * (whose model, and whether it says search by meaning is still loading) and, 3 s after it, the CPU, RSS
 * and peak again (settled: what that search needed is loaded). Each thread's CPU over the
 * whole window, busiest first. `--search`: one search right after signing in (a user's first), whose
 * time and model are printed too. Prints one JSON object.
 * Usage: node bench/start-cost.ts [--db /work/libs/gen100k-merged.db] [--marks 10,30] [--search]
 */
import { loadavg } from 'node:os'
import { rmSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { BENCH_QUERIES, benchDataDir, busyThreads, cpuMs, fillDuplicateKeys, keptAliveGet, processMemoryMb, signIn, spawnServer, threadCpu } from './child-server.ts'

const { values } = parseArgs({ options: { db: { type: 'string', default: '/work/libs/gen100k-merged.db' }, marks: { type: 'string', default: '10,30' }, search: { type: 'boolean', default: false } } })
const marks = values.marks!.split(',').map(Number)
const load = () => loadavg().map((x) => Math.round(x * 100) / 100)
const loadBefore = load()

const dataDir = await benchDataDir('start-cost', fillDuplicateKeys, values.db)
const spawnedAt = performance.now()
const server = spawnServer(dataDir)
process.on('exit', () => server.kill('SIGKILL'))
const pid = server.pid!
const { base, cookie } = await signIn(server)
const listeningMs = Math.round(performance.now() - spawnedAt)
const none = threadCpu(pid)
for (const t of none.values()) t.ms = 0
type Answer = { semanticModel: string; understood: { notes?: string[] } }
const ask = async () => {
  const { ms, body } = await keptAliveGet(base, cookie)(`/api/search/ai?q=${encodeURIComponent(BENCH_QUERIES[0])}&limit=20`)
  const a = JSON.parse(body) as Answer
  return { ms: Math.round(ms), semanticModel: a.semanticModel, stillLoading: (a.understood.notes ?? []).some((n) => n.includes('still loading')) }
}
const first = values.search ? await ask() : null

const at: Array<{ second: number; httpThreadMs: number; processMs: number; rssMb: number | null }> = []
for (const second of marks) {
  await new Promise((r) => setTimeout(r, Math.max(0, spawnedAt + second * 1000 - performance.now())))
  at.push({ second, httpThreadMs: cpuMs(pid, pid), processMs: cpuMs(pid), rssMb: processMemoryMb(pid) })
}
const peakMb = processMemoryMb(pid, 'VmHWM')
const threads = busyThreads(pid, none, 1)
const after = await ask()
// Settled as a user meets it: the search above has loaded what search by meaning answers with (the encoder's model too).
await new Promise((r) => setTimeout(r, 3000))
const settled = { httpThreadMs: cpuMs(pid, pid), processMs: cpuMs(pid), rssMb: processMemoryMb(pid), peakMb: processMemoryMb(pid, 'VmHWM') }
server.kill('SIGTERM')
await new Promise((r) => (server.exitCode === null ? server.once('exit', r) : r(null)))
rmSync(dataDir, { recursive: true, force: true })

process.stdout.write(JSON.stringify({
  bench: 'start-cost', library: values.db, listeningMs, at, peakMb, threadsMs: threads,
  firstSearch: first, searchAfter: after, settled3sAfterIt: settled,
  loadAverage: { before: loadBefore, after: load() },
}, null, 2) + '\n')
