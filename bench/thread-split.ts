import { readdirSync, readFileSync } from 'node:fs'

/**
 * Who takes the CPU in a server's busy phase: its threads' CPU time (/proc/PID/task, Linux), sampled
 * every 250 ms, by group. Every thread of a Node process is named "node" but the libuv pool's and
 * the delayed-task scheduler's, so the V8 platform's are told apart by order: Node starts the
 * scheduler and its platform workers (--v8-pool-size, 4 by default) before any script runs, then the inspector's
 * signal thread (idle), so they are the first pool size + 1 "node" threads after the main one. Worker threads
 * come later; those that lowered their own priority count as "niced workers", the rest (the model
 * thread, the database's maintenance thread, ONNX's pool) as "other".
 */
const GROUPS = ['HTTP', 'V8 platform', 'niced workers', 'other', 'libuv'] as const
type Group = (typeof GROUPS)[number]
const TICK_MS = 10
/** Node's platform workers (--v8-pool-size, 4 by default) and the inspector's signal thread. */
export const platformNodeThreads = (poolSize = 4): number => poolSize + 1

interface Task { tid: number; name: string; ms: number; nice: number }

const tasks = (pid: number): Task[] => readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    return [{ tid: Number(tid), name, ms: (Number(f[11]) + Number(f[12])) * TICK_MS, nice: Number(f[16]) }]
  } catch {
    return [] // exited between the listing and the read
  }
})

/** Each thread's group, by the rules above. */
export function groupOf(pid: number, all: Task[], poolSize = 4): Map<number, Group> {
  const platform = new Set(all.filter((t) => t.name === 'node' && t.tid !== pid).map((t) => t.tid).sort((a, b) => a - b).slice(0, platformNodeThreads(poolSize)))
  return new Map(all.map((t) => [t.tid, t.tid === pid ? 'HTTP'
    : t.name === 'DelayedTaskSche' || platform.has(t.tid) ? 'V8 platform'
      : t.name === 'libuv-worker' ? 'libuv' : t.nice > 0 ? 'niced workers' : 'other']))
}

/** The nice value of each group's threads, as "group n[,m]". */
const nices = (pid: number, all: Task[], poolSize: number): string => {
  const groups = groupOf(pid, all, poolSize)
  return GROUPS.map((g) => `${g} ${[...new Set(all.filter((t) => groups.get(t.tid) === g).map((t) => t.nice))].join(',') || '-'}`).join('; ')
}

/** Starts sampling; `stop` gives the CPU ms each group took per second, per second of the phase and over windows. */
export function sampleThreadSplit(pid: number, windows: [number, number][] = [[0, 4], [4, 15], [15, 30]], poolSize = 4) {
  const t0 = performance.now()
  const seen = new Map<number, Task>() // a thread's last sample, kept after it exits
  const samples: { s: number; byGroup: Record<Group, number> }[] = []
  const take = () => {
    try {
      for (const t of tasks(pid)) seen.set(t.tid, t)
    } catch {
      return // the server exited
    }
    const groups = groupOf(pid, [...seen.values()], poolSize)
    const byGroup = Object.fromEntries(GROUPS.map((g) => [g, 0])) as Record<Group, number>
    for (const t of seen.values()) byGroup[groups.get(t.tid)!] += t.ms
    samples.push({ s: (performance.now() - t0) / 1000, byGroup })
  }
  take()
  const timer = setInterval(take, 250)
  return {
    stop: () => {
      clearInterval(timer)
      take()
      /** Cumulative CPU of a group at the sample nearest to second s. */
      const at = (g: Group, s: number) => samples.reduce((a, b) => (Math.abs(b.s - s) < Math.abs(a.s - s) ? b : a)).byGroup[g]
      const end = samples[samples.length - 1].s
      const rate = (g: Group, from: number, to: number) => Math.round((at(g, Math.min(to, end)) - at(g, from)) / Math.max(0.25, Math.min(to, end) - from))
      return {
        nices: nices(pid, [...seen.values()], poolSize),
        perSecond: Object.fromEntries(GROUPS.map((g) => [g, Array.from({ length: 6 }, (_, s) => rate(g, s, s + 1))])),
        windows: Object.fromEntries(GROUPS.map((g) => [g, windows.map(([a, b]) => rate(g, a, b))])),
        windowSeconds: windows,
      }
    },
  }
}

export type ThreadSplit = ReturnType<ReturnType<typeof sampleThreadSplit>['stop']>

/** The split as Markdown lines. */
export const threadSplitLines = (split: ThreadSplit): string[] => [
  `server threads' CPU ms per second of the busy phase (seconds ${split.windowSeconds.map(([a, b]) => `${a}-${b}`).join(' / ')}; seconds 0..5 each):`,
  ...Object.keys(split.windows).map((g) => `  ${g}: ${split.windows[g].join(' / ')}; ${split.perSecond[g].join(' ')}`),
  `  nice at the end: ${split.nices}`,
]
