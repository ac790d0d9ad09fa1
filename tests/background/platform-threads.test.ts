import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { getPriority, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { lowerPlatformThreadsPriority, platformNice } from '../../src-main/background/index.ts'
import { REPO_ROOT } from '../support/fixtures.ts'

const started: ChildProcess[] = []
const dirs: string[] = []
afterEach(() => {
  for (const c of started.splice(0)) c.kill('SIGKILL')
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

interface Task { tid: number; name: string; nice: number }
/** A process's threads in the order they were started (thread ids grow), with their names and nice values. */
const tasksOf = (pid: number): Task[] => readdirSync(`/proc/${pid}/task`).map((tid) => {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
  return { tid: Number(tid), name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) }
}).sort((a, b) => a.tid - b.tid)

/** A real `sheaf serve` on loopback, once it listens: its pid. */
async function serve(env: NodeJS.ProcessEnv): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-platform-threads-'))
  dirs.push(dataDir)
  const child = spawn(process.execPath, ['src-main/cli/main.ts', '--data-dir', dataDir, 'serve', '--host', '127.0.0.1', '--port', '0', '--no-ui'], {
    cwd: REPO_ROOT, env: { ...process.env, SHEAF_SECRET_STORE: 'file', ...env }, stdio: ['ignore', 'pipe', 'ignore'],
  })
  started.push(child)
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()).includes('listening on') && resolve())
    child.once('exit', (code) => reject(new Error(`sheaf serve exited (${code})`)))
  })
  return child.pid!
}

/**
 * Node starts these before any script, and so before any worker: the delayed-task scheduler, V8's
 * four platform workers and the inspector's signal thread, the first five "node" threads after the
 * main one. Told apart here by order, not as the server does (by what exists when it starts).
 */
const platformOf = (tasks: Task[], pid: number): Task[] => [
  ...tasks.filter((t) => t.name === 'DelayedTaskSche'),
  ...tasks.filter((t) => t.name === 'node' && t.tid !== pid).slice(0, 5),
]

describe('lowerPlatformThreadsPriority', () => {
  it('does nothing off Linux, in Electron, off the main thread, or when told not to', () => {
    expect(lowerPlatformThreadsPriority({ platform: 'darwin', nice: 19 })).toEqual([])
    expect(lowerPlatformThreadsPriority({ platform: 'win32', nice: 19 })).toEqual([])
    expect(lowerPlatformThreadsPriority({ platform: 'linux', electron: '33.0.0', mainThread: true, nice: 19 })).toEqual([])
    expect(lowerPlatformThreadsPriority({ platform: 'linux', electron: undefined, mainThread: false, nice: 19 })).toEqual([])
    expect(lowerPlatformThreadsPriority({ platform: 'linux', electron: undefined, mainThread: true, nice: 0 })).toEqual([])
  })

  it("takes SHEAF_PLATFORM_NICE, else the workers' nice, within 0-19", () => {
    expect(platformNice({})).toBe(19)
    expect(platformNice({ SHEAF_WORKER_NICE: '12' })).toBe(12)
    expect(platformNice({ SHEAF_WORKER_NICE: '12', SHEAF_PLATFORM_NICE: '5' })).toBe(5)
    expect(platformNice({ SHEAF_PLATFORM_NICE: '0' })).toBe(0)
    expect(platformNice({ SHEAF_PLATFORM_NICE: '99' })).toBe(19)
  })

  it.runIf(process.platform === 'linux')("a server's platform threads carry the nice set; its HTTP thread and the threads it starts later keep theirs", async () => {
    const own = getPriority()
    const pid = await serve({ SHEAF_PLATFORM_NICE: '17', SHEAF_WORKER_NICE: '19' })
    const tasks = tasksOf(pid)
    const platform = platformOf(tasks, pid)
    expect(platform.map((t) => t.name)).toEqual(['DelayedTaskSche', 'node', 'node', 'node', 'node', 'node'])
    expect(platform.map((t) => t.nice)).toEqual(Array(6).fill(Math.max(own, 17)))
    expect(tasks.find((t) => t.tid === pid)!.nice).toBe(own)
    // Started after (the database's maintenance thread, the library's workers): at the process's nice or the workers' 19, never 17.
    const isLater = (t: Task) => t.tid > platform[platform.length - 1].tid && t.name !== 'libuv-worker'
    let later = tasks.filter(isLater)
    for (let i = 0; i < 100 && later.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100))
      later = tasksOf(pid).filter(isLater)
    }
    expect(later.length).toBeGreaterThan(0)
    expect(later.filter((t) => t.nice !== own && t.nice !== 19)).toEqual([])
  }, 30_000)

  it.runIf(process.platform === 'linux')('leaves them at the process\'s nice with SHEAF_PLATFORM_NICE=0', async () => {
    const own = getPriority()
    const pid = await serve({ SHEAF_PLATFORM_NICE: '0' })
    expect(platformOf(tasksOf(pid), pid).map((t) => t.nice)).toEqual(Array(6).fill(own))
  }, 30_000)
})
