import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads'
import { startNicedWorker } from '../../background/index.ts'
import { encoderOverPort } from '../local/encoder-port.ts'
import type { EngineConfig } from './local-engine.ts'
import type { WorkerStart } from './local-runner.ts'
import { WORKER_LIMITS } from './worker-limits.ts'

/** Queries (a person waits) go before batches (a job's posts) at every turn of the model. */
export type EncoderPriority = 'query' | 'batch'

/**
 * The process's one copy of the sentence model, in a worker thread of its own: search's queries encode
 * through it from this thread, and the pipeline's runners through ports they lease. The model reads a
 * job's texts 8 at a time, so a query waits for one such batch, not for the job.
 */
export interface EncoderHost {
  /** Vectors of a query's texts, ahead of any job's. */
  encode(texts: readonly string[]): Promise<Float32Array[]>
  /**
   * A port for a job's encoding: handed to a worker (useSentenceEncoder over encoderOverPort), or,
   * with an engine's configuration, a runner whose engine lives in the model's own thread
   * (createModelThreadRunner). Release it when done: the model's thread stays while any lease is held.
   */
  lease(config?: EngineConfig): { port: MessagePort; release(): void }
  /** Whether the model's thread runs now (it stops after idleMs with no lease and no query). */
  readonly running: boolean
  close(): Promise<void>
}

/**
 * With no lease and no query for this long, the model's thread ends. That gives back about half of
 * what it held (~90 of ~180 MB): the allocator keeps the rest for the next thread to reuse.
 */
const IDLE_MS = 120_000

export function createEncoderHost({ idleMs = IDLE_MS }: { idleMs?: number } = {}): EncoderHost {
  let thread: { worker: Worker; queries: ReturnType<typeof encoderOverPort> } | null = null
  let leases = 0
  let idle: NodeJS.Timeout | null = null

  const connect = (worker: Worker, priority: EncoderPriority, config: EngineConfig | null = null): MessagePort => {
    const { port1, port2 } = new MessageChannel()
    worker.postMessage({ port: port2, priority, config }, [port2])
    return port1
  }
  const start = () => {
    const worker = startNicedWorker(new URL('./local-worker.ts', import.meta.url), { workerData: { model: true } satisfies WorkerStart, resourceLimits: WORKER_LIMITS })
    worker.unref()
    const t = { worker, queries: encoderOverPort(connect(worker, 'query')) }
    // An error ends the thread; 'exit' follows and the next call starts a new one.
    worker.on('error', () => {})
    worker.on('exit', () => {
      if (thread === t) thread = null
    })
    return (thread = t)
  }
  const stop = async () => {
    const t = thread
    thread = null
    await t?.worker.terminate()
  }
  const whenIdle = () => {
    if (idle) clearTimeout(idle)
    idle = setTimeout(() => {
      if (leases === 0 && !thread?.queries.pending) void stop()
    }, idleMs)
    idle.unref()
  }

  return {
    get running() {
      return thread !== null
    },
    async encode(texts) {
      if (idle) clearTimeout(idle)
      try {
        return await (thread ?? start()).queries.encode(texts)
      } finally {
        whenIdle()
      }
    },
    lease(config) {
      const port = connect((thread ?? start()).worker, 'batch', config)
      leases++
      let released = false
      return {
        port,
        release: () => {
          if (released) return
          released = true
          leases--
          whenIdle()
        },
      }
    },
    async close() {
      if (idle) clearTimeout(idle)
      await stop()
    },
  }
}

let shared: EncoderHost | null = null
/** The process's host: every runner and search of this process share one model. */
export const sharedEncoderHost = (): EncoderHost => (shared ??= createEncoderHost())
