import { readdirSync, stat } from 'node:fs'
import { setPriority } from 'node:os'
import { Worker, type WorkerOptions } from 'node:worker_threads'

/** The nice value of background workers: SHEAF_WORKER_NICE (0-19; 0 leaves them at normal priority), 19 by default. */
export function workerNice(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.SHEAF_WORKER_NICE ?? 19)
  return Number.isInteger(n) ? Math.min(19, Math.max(0, n)) : 19
}

/**
 * Starts a background worker (analysis, parsing, indexing) on a thread of lower CPU priority (nice 19
 * unless SHEAF_WORKER_NICE says otherwise), so on a busy machine the HTTP thread wins the CPU over it.
 * The thread is lowered from here as soon as it exists: Node's own start of a worker (its bootstrap,
 * before any code of ours) took 20-60 ms of a core at normal priority, several threads at once in the
 * second an import and a job start. The thread also lowers itself first thing (should the new thread
 * not be told apart here), before it loads `entry`: loading modules (type stripping's start, reading,
 * compiling) took a new thread 0.1-0.9 s of a core, so its first code is plain JavaScript, evaluated.
 *
 * Linux only: there the nice value belongs to each thread and setpriority(PRIO_PROCESS, tid) changes
 * that thread alone. On macOS and Windows the same call changes the whole process, the HTTP thread
 * with it, so there it is not made. libuv's pool (async files, crypto, DNS) is started by the first
 * thread that needs it, and its threads keep that thread's nice: it is started first, here and in the
 * worker before it lowers itself, so the HTTP thread's file and crypto work never waits on nice-19 threads.
 */
export function startNicedWorker(entry: URL, options: WorkerOptions = {}, { platform = process.platform, nice = workerNice() } = {}): Worker {
  const load = `import(${JSON.stringify(entry.href)})`
  if (platform !== 'linux' || nice <= 0) return new Worker(load, { ...options, eval: true })
  startLibuvPool()
  const before = threadIds()
  // A sandbox that forbids it: the work still runs, at normal priority.
  const worker = new Worker(`${startPoolThenLower(nice)}${load}`, { ...options, eval: true })
  const started = threadIds().filter((tid) => !before.includes(tid))
  // Another thread may have started one meanwhile (a model's own threads): then the worker lowers itself.
  if (started.length === 1) lowerThread(started[0], nice)
  return worker
}

const startPoolThenLower = (nice: number) =>
  `process.getBuiltinModule('node:fs').stat('/', () => {}); try { process.getBuiltinModule('node:os').setPriority(${nice}) } catch {}\n`

const startLibuvPool = () => stat('/', () => {})

/** This process's threads (Linux). */
const threadIds = (): number[] => {
  try {
    return readdirSync('/proc/self/task').map(Number)
  } catch {
    return []
  }
}

function lowerThread(tid: number, nice: number): void {
  try {
    setPriority(tid, nice)
  } catch {
    // Ended already, or not allowed: the worker's own first line tries again.
  }
}
