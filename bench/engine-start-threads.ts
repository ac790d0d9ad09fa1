/**
 * Whose threads pay for a background engine's start: the CPU time of this process's threads while one
 * background runner (as the pipeline's) starts its engine and extracts the entities of --posts posts,
 * split into the HTTP thread, V8's platform threads (created with the process, at its nice value: the
 * parallel and concurrent parts of garbage collection and compiling, for every isolate), the model
 * thread and the runner's worker (niced). CPU time, not wall time: V8 flags such as --single-threaded-gc
 * or --no-concurrent-recompilation (before the script name) show which part of the platform threads'
 * time is the worker's garbage collection and which its compiling.
 *   node [V8 flags] bench/engine-start-threads.ts [--posts 250]
 */
import { readdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { createEncoderHost, createWorkerRunner } from '../src-main/ai/index.ts'

const { values } = parseArgs({ options: { posts: { type: 'string', default: '250' } } })
const CLOCK_TICKS_PER_S = 100

/** CPU ms of each thread of this process, by thread id (Linux: /proc/self/task/<tid>/stat). */
const cpuByThread = (): Map<string, number> => new Map(readdirSync('/proc/self/task').map((tid) => {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return [tid, ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S]
}))

const atStart = cpuByThread()
const host = createEncoderHost()
await host.encode(['the model thread, started before the runner'])
const before = cpuByThread()
const t0 = performance.now()
const runner = createWorkerRunner({ existingTags: [], categories: [], examples: [] }, { background: true, encoder: host })
const posts = Array.from({ length: Number(values.posts) }, (_, i) => ({
  id: i + 1, text: `Post ${i} on SQLite indexes in Berlin with @alice, React and TypeScript tips from Google https://example.com/${i}`,
  authorHandle: 'bob', urls: [], media: [], inReplyToPostId: null, quoted: null, lang: 'en', imageText: null,
}))
await runner.entities(posts)
const wallMs = Math.round(performance.now() - t0)
const groups: Record<string, number> = { 'HTTP thread': 0, 'V8 platform threads': 0, 'model thread': 0, 'runner worker': 0 }
for (const [tid, ms] of cpuByThread()) {
  const group = tid === String(process.pid) ? 'HTTP thread' : atStart.has(tid) ? 'V8 platform threads' : before.has(tid) ? 'model thread' : 'runner worker'
  groups[group] += ms - (before.get(tid) ?? 0)
}
await runner.close()
await host.close()
console.log(`engine start + entities of ${values.posts} posts: ${wallMs} ms wall; CPU ms ${JSON.stringify(groups)}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
