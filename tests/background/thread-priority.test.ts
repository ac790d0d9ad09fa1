import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createEncoderHost, createWorkerRunner } from '../../src-main/ai/index.ts'
import { startNicedWorker, workerNice } from '../../src-main/background/index.ts'

/** Nice value of each thread of this process, by thread id (Linux: field 19 of /proc/self/task/<tid>/stat). */
const niceByThread = (): Map<number, number> =>
  new Map(readdirSync('/proc/self/task').flatMap((tid) => {
    const stat = statOf(tid)
    return stat === undefined ? [] : [[Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])] as const]
  }))

/** A thread listed a moment ago may have ended since (a worker that was terminated, a pool thread). */
const statOf = (tid: string): string | undefined => {
  try {
    return readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}
const lowered = () => [...niceByThread().values()].filter((n) => n === 19).length

describe('workerNice', () => {
  it('takes its nice value from SHEAF_WORKER_NICE, 19 by default, within 0-19', () => {
    expect(workerNice({})).toBe(19)
    expect(workerNice({ SHEAF_WORKER_NICE: '10' })).toBe(10)
    expect(workerNice({ SHEAF_WORKER_NICE: '0' })).toBe(0)
    expect(workerNice({ SHEAF_WORKER_NICE: '40' })).toBe(19)
    expect(workerNice({ SHEAF_WORKER_NICE: 'low' })).toBe(19)
  })

  it.runIf(process.platform === 'linux')('lowers a background worker thread alone, not the thread that started it', async () => {
    // The sentence model's own thread runs in the background too: started first, so it is counted before.
    const host = createEncoderHost()
    await host.encode(['x'])
    const before = lowered()
    const mainNice = niceByThread().get(process.pid)
    const set = process.env.SHEAF_WORKER_NICE
    process.env.SHEAF_WORKER_NICE = '19' // a worker's environment is a copy taken when it starts (on its first call)
    const background = createWorkerRunner({ existingTags: [], categories: [], examples: [] }, { background: true, encoder: host })
    const normal = createWorkerRunner({ existingTags: [], categories: [], examples: [] }, { encoder: host })
    try {
      await background.normalizeTags([['x']])
      await normal.normalizeTags([['x']])
      expect(lowered()).toBe(before + 1)
      expect(niceByThread().get(process.pid)).toBe(mainNice)
      expect(mainNice).not.toBe(19)
    } finally {
      if (set === undefined) delete process.env.SHEAF_WORKER_NICE
      else process.env.SHEAF_WORKER_NICE = set
      await background.close()
      await normal.close()
      await host.close()
    }
  })
})

describe('startNicedWorker', () => {
  /** Starts a worker from a module that imports another, which reads the thread's nice as it loads. */
  const niceAtLoad = async (run: (entry: URL) => ReturnType<typeof startNicedWorker>) => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-niced-'))
    const readNice = "(() => { const s = readFileSync('/proc/thread-self/stat', 'utf8'); return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[16]) })()"
    writeFileSync(join(dir, 'dep.mjs'), `import { readFileSync } from 'node:fs'\nexport const niceAtLoad = ${readNice}\n`)
    writeFileSync(join(dir, 'entry.mjs'), "import { parentPort, workerData } from 'node:worker_threads'\nimport { niceAtLoad } from './dep.mjs'\nparentPort.postMessage({ niceAtLoad, workerData })\n")
    writeFileSync(join(dir, 'broken.mjs'), "throw new Error('this module does not load')\n")
    try {
      const worker = run(pathToFileURL(join(dir, 'entry.mjs')))
      const reply = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject))
      await worker.terminate()
      const broken = run(pathToFileURL(join(dir, 'broken.mjs')))
      const failed = await new Promise<Error>((resolve) => broken.once('error', resolve))
      return { reply, failed: failed.message }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  // A module's own code runs after everything it imports has loaded: the thread must give way before that.
  it.runIf(process.platform === 'linux')("loads the worker's modules at the lowered priority, with its options, and reports a module that fails", async () => {
    const { reply, failed } = await niceAtLoad((entry) => startNicedWorker(entry, { workerData: { tag: 'kept' } }, { nice: 19 }))
    expect(reply).toEqual({ niceAtLoad: 19, workerData: { tag: 'kept' } })
    expect(failed).toBe('this module does not load')
    expect(niceByThread().get(process.pid)).not.toBe(19)
  })

  it.runIf(process.platform === 'linux')('leaves the priority alone where the call would reach the whole process, or when told to', async () => {
    for (const [platform, nice] of [['darwin', 19], ['win32', 19], ['linux', 0]] as const) {
      const { reply } = await niceAtLoad((entry) => startNicedWorker(entry, {}, { platform, nice }))
      expect(reply).toMatchObject({ niceAtLoad: niceByThread().get(process.pid) })
    }
  })
})

describe("libuv's pool", () => {
  // A fresh process whose first use of the pool is a niced worker's: its threads inherit the nice of
  // the thread that starts them, so the HTTP thread's async file and crypto work would wait at nice 19.
  it.runIf(process.platform === 'linux')('keeps normal priority when a background worker is the first to use it', () => {
    const module = new URL('../../src-main/background/thread-priority.ts', import.meta.url).href
    const entry = 'data:text/javascript,' + encodeURIComponent("import { parentPort } from 'node:worker_threads'; import { stat } from 'node:fs'; stat('/', () => parentPort.postMessage('done'))")
    const script = `
      import { readdirSync, readFileSync } from 'node:fs'
      const { startNicedWorker } = await import(${JSON.stringify(module)})
      const worker = startNicedWorker(new URL(${JSON.stringify(entry)}), {}, { nice: 19 })
      worker.once('message', () => {
        const nice = (t) => { const s = readFileSync('/proc/self/task/' + t + '/stat', 'utf8'); return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[16]) }
        const pool = readdirSync('/proc/self/task').filter((t) => readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim() === 'libuv-worker')
        console.log(JSON.stringify({ main: nice(process.pid), pool: pool.map(nice) }))
        worker.terminate()
      })`
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    const { main, pool } = JSON.parse(out.trim()) as { main: number; pool: number[] }
    expect(pool.length).toBeGreaterThan(0)
    expect(pool).toEqual(pool.map(() => main))
    expect(main).not.toBe(19)
  })
})
