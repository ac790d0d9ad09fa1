import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createEncoderHost, createWorkerRunner } from '../../src-main/ai/index.ts'
import { lowerThreadPriority, workerNice } from '../../src-main/background/index.ts'

/** Nice value of each thread of this process, by thread id (Linux: field 19 of /proc/self/task/<tid>/stat). */
const niceByThread = (): Map<number, number> =>
  new Map(readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
    return [Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])]
  }))
const lowered = () => [...niceByThread().values()].filter((n) => n === 19).length

describe('lowerThreadPriority', () => {
  it('does nothing on the main thread, where the call would reach the whole process, or when told not to', () => {
    expect(lowerThreadPriority('linux', true, 19)).toBe(false)
    expect(lowerThreadPriority('darwin', false, 19)).toBe(false)
    expect(lowerThreadPriority('win32', false, 19)).toBe(false)
    expect(lowerThreadPriority('linux', false, 0)).toBe(false)
  })

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

describe("libuv's pool", () => {
  // A fresh process whose first use of the pool is a niced worker's: its threads inherit the nice of
  // the thread that starts them, so the HTTP thread's async file and crypto work would wait at nice 19.
  it.runIf(process.platform === 'linux')('keeps normal priority when a background worker is the first to use it', () => {
    const module = new URL('../../src-main/background/thread-priority.ts', import.meta.url).href
    const script = `
      import { Worker } from 'node:worker_threads'
      import { readdirSync, readFileSync } from 'node:fs'
      const worker = new Worker(\`
        import { parentPort } from 'node:worker_threads'
        import { stat } from 'node:fs'
        const { lowerThreadPriority } = await import(${JSON.stringify(module)})
        lowerThreadPriority('linux', false, 19)
        stat('/', () => parentPort.postMessage('done'))\`, { eval: true })
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
