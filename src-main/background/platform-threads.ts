import { readdirSync, readFileSync } from 'node:fs'
import { setPriority } from 'node:os'
import { isMainThread } from 'node:worker_threads'
import { workerNice } from './thread-priority.ts'

/**
 * The nice value of V8's platform threads: SHEAF_PLATFORM_NICE (0-19; 0 leaves them at normal
 * priority), by default the background workers' (SHEAF_WORKER_NICE, 19).
 */
export function platformNice(env: NodeJS.ProcessEnv = process.env): number {
  return env.SHEAF_PLATFORM_NICE === undefined ? workerNice(env) : workerNice({ SHEAF_WORKER_NICE: env.SHEAF_PLATFORM_NICE })
}

const threadName = (tid: string): string => {
  try {
    return readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim()
  } catch {
    return '' // exited
  }
}

/**
 * This process's threads but the main one and libuv's pool (named "libuv-worker"). Called before the
 * process starts any worker or addon thread, these are what Node starts before any script: V8's
 * platform threads (--v8-pool-size, 4) with their delayed-task scheduler, and the inspector's idle
 * signal thread.
 */
export function startupThreadIds(): number[] {
  return readdirSync('/proc/self/task').filter((tid) => Number(tid) !== process.pid && threadName(tid) !== 'libuv-worker').map(Number)
}

export interface PlatformPriorityOptions { platform?: NodeJS.Platform; electron?: string; mainThread?: boolean; nice?: number }

/**
 * Lowers the CPU priority of V8's platform threads; call it at start, before any worker exists. They
 * run the parallel and concurrent parts of garbage collection and the background compiles of every
 * isolate in the process, the niced workers' too: at nice 0 a worker's start (compromise and the word
 * models, half its own CPU again on these threads) took the CPU the HTTP thread needed on 2 cores.
 * At the workers' nice that work yields like the workers do; the HTTP thread's own collections then
 * get less help on a busy machine and do more of their work on the thread itself.
 * Linux only (a thread's nice is its own there); not in Electron, whose process holds Chromium's
 * threads besides. Returns the ids lowered.
 */
export function lowerPlatformThreadsPriority({
  platform = process.platform, electron = process.versions.electron, mainThread = isMainThread, nice = platformNice(),
}: PlatformPriorityOptions = {}): number[] {
  if (platform !== 'linux' || electron || !mainThread || nice === 0) return []
  return startupThreadIds().filter((tid) => {
    try {
      setPriority(tid, nice)
      return true
    } catch {
      return false // exited, or a sandbox that forbids it: the thread keeps its priority
    }
  })
}
