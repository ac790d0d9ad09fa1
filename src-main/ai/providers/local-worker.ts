import { parentPort, workerData } from 'node:worker_threads'
import { createEngine, type EngineConfig } from './local-engine.ts'
import type { Op } from './local-runner.ts'

// Worker-thread entry: one engine, one message at a time, in order (see local-runner.ts).
const engine = createEngine(workerData as EngineConfig)
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
