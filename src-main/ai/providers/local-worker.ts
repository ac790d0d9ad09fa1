import { parentPort, workerData } from 'node:worker_threads'
import { lowerThreadPriority } from '../../background/index.ts'
import { encoderOverPort } from '../local/encoder-port.ts'
import { encodeTexts, useSentenceEncoder } from '../local/sentence-encoder.ts'
import type { Engine } from './local-engine.ts'
import type { Op, WorkerStart } from './local-runner.ts'

// Worker-thread entry: one engine, one message at a time, in order (see local-runner.ts).
const start = workerData as WorkerStart
if (start.background) lowerThreadPriority()
useSentenceEncoder(encoderOverPort(start.encoderPort))
// The engine (language models, vocabularies: ~35 MB) loads on its first use: a worker asked only to encode needs none of it.
let engine: Promise<Engine> | null = null
const engineOf = () => (engine ??= import('./local-engine.ts').then(({ createEngine }) => createEngine(start.config)))

let queue: Promise<void> = Promise.resolve()
parentPort!.on('message', (m: { seq: number; op: Op; args: unknown[] }) => {
  queue = queue.then(async () => {
    try {
      const result = m.op === 'encode' ? await encodeTexts(m.args[0] as string[]) : await run(await engineOf(), m.op, m.args)
      parentPort!.postMessage({ seq: m.seq, ok: true, result })
    } catch (e) {
      parentPort!.postMessage({ seq: m.seq, ok: false, error: e instanceof Error ? e.message : String(e) })
    }
  })
})

const run = (e: Engine, op: Op, args: unknown[]) => (e[op] as (...a: unknown[]) => unknown)(...args)
