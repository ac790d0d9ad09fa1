import { parentPort, workerData } from 'node:worker_threads'
import { lowerThreadPriority } from '../../background/index.ts'
import { createEngine } from './local-engine.ts'
import type { Op, WorkerStart } from './local-runner.ts'

// Worker-thread entry: one engine, one message at a time, in order (see local-runner.ts).
const start = workerData as WorkerStart
if (start.background) lowerThreadPriority()
const engine = createEngine(start.config)
let queue: Promise<void> = Promise.resolve()
parentPort!.on('message', (m: { seq: number; op: Op; args: unknown[] }) => {
  queue = queue.then(async () => {
    try {
      const fn = engine[m.op] as (...a: unknown[]) => unknown
      const result = await fn(...m.args)
      parentPort!.postMessage({ seq: m.seq, ok: true, result })
    } catch (e) {
      parentPort!.postMessage({ seq: m.seq, ok: false, error: e instanceof Error ? e.message : String(e) })
    }
  })
})
