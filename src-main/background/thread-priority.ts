import { Worker, type WorkerOptions } from 'node:worker_threads'

/** The nice value of background workers: SHEAF_WORKER_NICE (0-19; 0 leaves them at normal priority), 19 by default. */
export function workerNice(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.SHEAF_WORKER_NICE ?? 19)
  return Number.isInteger(n) ? Math.min(19, Math.max(0, n)) : 19
}

/**
 * Starts a background worker (analysis, parsing, indexing) on a thread of lower CPU priority (nice 19
 * unless SHEAF_WORKER_NICE says otherwise), so on a busy machine the HTTP thread wins the CPU over it.
 * The thread lowers itself before it loads `entry`: a module's own code runs only once everything it
 * imports has loaded, and that loading (type stripping's start, reading, compiling) took a new thread
 * 0.1-0.9 s of a core at normal priority, in the seconds an import or a job starts. So its first code
 * is plain JavaScript, evaluated.
 *
 * Linux only: there the nice value belongs to each thread and setpriority(PRIO_PROCESS, 0) changes the
 * calling thread alone. On macOS and Windows the same call changes the whole process, the HTTP thread
 * with it, so there it is not made. libuv's pool (async files, crypto, DNS) is started by the first
 * thread that needs it, and its threads keep that thread's nice: it is started first, at normal
 * priority, so the HTTP thread's file and crypto work never waits on nice-19 threads.
 */
export function startNicedWorker(entry: URL, options: WorkerOptions = {}, { platform = process.platform, nice = workerNice() } = {}): Worker {
  const lower = platform === 'linux' && nice > 0
    // A sandbox that forbids it: the work still runs, at normal priority.
    ? `process.getBuiltinModule('node:fs').stat('/', () => {}); try { process.getBuiltinModule('node:os').setPriority(${nice}) } catch {}\n`
    : ''
  return new Worker(`${lower}import(${JSON.stringify(entry.href)})`, { ...options, eval: true })
}
