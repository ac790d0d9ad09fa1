/**
 * Whose threads pay for a background engine's start: the CPU time of this process's threads while one
 * background runner (as the pipeline's) starts its engine and extracts the entities of --posts posts,
 * split into the HTTP thread, V8's platform threads (created with the process, at its nice value: the
 * parallel and concurrent parts of garbage collection and compiling, for every isolate), the model
 * thread and the runner's worker (niced). CPU time, not wall time: V8 flags such as --single-threaded-gc
 * or --no-concurrent-recompilation (before the script name) show which part of the platform threads'
 * time is the worker's garbage collection and which its compiling.
 * --platform-nice N lowers the platform threads first (the threads present when the script starts, but libuv's pool),
 * as stop 28's held-back `sheaf serve` did (branch tail5, f426669), to see what their nice costs and gives.
 * --main-busy keeps this (the HTTP) thread serving beside, 5 ms of allocating work due every 8 ms, open loop:
 * how late that work ends, the CPU share the thread gets and its own garbage collections' pauses say
 * what the platform threads' nice costs it and gives it.
 *   node [V8 flags] bench/engine-start-threads.ts [--posts 250] [--platform-nice 19] [--main-busy]
 */
import { readdirSync, readFileSync } from 'node:fs'
import { loadavg, setPriority } from 'node:os'
import { PerformanceObserver } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { createEncoderHost, createWorkerRunner } from '../src-main/ai/index.ts'

const { values } = parseArgs({ options: { posts: { type: 'string', default: '250' }, 'platform-nice': { type: 'string' }, 'main-busy': { type: 'boolean', default: false } } })
const CLOCK_TICKS_PER_S = 100

/** CPU ms of each thread of this process, by thread id (Linux: /proc/self/task/<tid>/stat). */
const cpuByThread = (): Map<string, number> => new Map(readdirSync('/proc/self/task').map((tid) => {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return [tid, ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S]
}))

const atStart = cpuByThread()
const lowered = values['platform-nice'] === undefined ? []
  : [...atStart.keys()].filter((tid) => tid !== String(process.pid) && readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== 'libuv-worker')
for (const tid of lowered) setPriority(Number(tid), Number(values['platform-nice']))
const host = createEncoderHost()
await host.encode(['the model thread, started before the runner'])
const before = cpuByThread()
const t0 = performance.now()
const runner = createWorkerRunner({ existingTags: [], categories: [], examples: [] }, { background: true, encoder: host })
const posts = Array.from({ length: Number(values.posts) }, (_, i) => ({
  id: i + 1, text: `Post ${i} on SQLite indexes in Berlin with @alice, React and TypeScript tips from Google https://example.com/${i}`,
  authorHandle: 'bob', urls: [], media: [], inReplyToPostId: null, quoted: null, lang: 'en', imageText: null,
}))
const busy = values['main-busy'] ? mainBusy() : null
await runner.entities(posts)
const wallMs = Math.round(performance.now() - t0)
const main = await busy?.stop()
const groups: Record<string, number> = { 'HTTP thread': 0, 'V8 platform threads': 0, 'model thread': 0, 'runner worker': 0 }
for (const [tid, ms] of cpuByThread()) {
  const group = tid === String(process.pid) ? 'HTTP thread' : atStart.has(tid) ? 'V8 platform threads' : before.has(tid) ? 'model thread' : 'runner worker'
  groups[group] += ms - (before.get(tid) ?? 0)
}
await runner.close()
await host.close()
console.log(`engine start + entities of ${values.posts} posts: ${wallMs} ms wall; CPU ms ${JSON.stringify(groups)}; platform threads lowered: ${lowered.length}${main ? `; HTTP thread busy beside: ${JSON.stringify(main)}` : ''}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)

/**
 * This thread serving open-loop work as requests come: a 5 ms slice of allocating work due every 8 ms
 * (0.6 of a core, as the HTTP thread's in the load bench), run late when the thread was held. Until
 * stopped: each slice's latency from when it was due to its end (p50, p95, max), the thread's CPU
 * share of the wall time, and its garbage collections' pauses (count, total and longest ms).
 */
function mainBusy() {
  const pauses: number[] = []
  const gc = new PerformanceObserver((list) => { for (const e of list.getEntries()) pauses.push(e.duration) })
  gc.observe({ entryTypes: ['gc'] })
  const mainCpu = () => cpuByThread().get(String(process.pid))!
  const [cpu0, wall0] = [mainCpu(), performance.now()]
  const latencies: number[] = []
  let running = true
  let due = wall0
  let kept: unknown[] = []
  const slice = () => {
    const end = performance.now() + 5
    while (performance.now() < end) kept = JSON.parse(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, text: `post ${i} ${latencies.length}`, tags: ['a', 'b'] }))))
  }
  const tick = () => {
    for (; running && performance.now() >= due; due += 8) {
      slice()
      latencies.push(performance.now() - due)
    }
    if (running) setTimeout(tick, Math.max(0, due - performance.now()))
  }
  setTimeout(tick, 0)
  return {
    stop: async () => {
      running = false
      await new Promise((r) => setTimeout(r, 50)) // the last GC entries are delivered
      gc.disconnect()
      const cpu = mainCpu() - cpu0
      const wall = performance.now() - wall0
      const round = (x: number) => Math.round(x * 10) / 10
      const sorted = latencies.sort((a, b) => a - b)
      const q = (p: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0)
      return {
        slices: latencies.length, p50: q(0.5), p95: q(0.95), max: q(1), share: Math.round((cpu / wall) * 100) / 100, kept: kept.length,
        gcPauses: pauses.length, gcMs: round(pauses.reduce((a, b) => a + b, 0)), gcMaxMs: round(Math.max(0, ...pauses)),
      }
    },
  }
}
