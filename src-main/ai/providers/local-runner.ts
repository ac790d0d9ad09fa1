import { Worker, type MessagePort } from 'node:worker_threads'
import { sharedEncoderHost, type EncoderHost } from './encoder-host.ts'
import { createEngine, type Engine, type EngineConfig } from './local-engine.ts'
import { WORKER_LIMITS } from './worker-limits.ts'

type Ops = Pick<Engine, 'entities' | 'semantic' | 'categorize' | 'encode' | 'normalizeTags' | 'configure' | 'relatedBuild' | 'relatedOpen' | 'related'>
export type Op = keyof Ops
/**
 * What a worker starts from; a background worker yields the CPU to requests (see lowerThreadPriority).
 * Its sentence vectors come through `encoderPort`, from the process's one model (encoder-host.ts).
 */
export type WorkerStart = { config: EngineConfig; background: boolean; encoderPort: MessagePort }

/** The local models behind an async face, so callers do not care whether they run here or in a worker. */
export type LocalRunner = { [K in Op]: (...args: Parameters<Ops[K]>) => Promise<Awaited<ReturnType<Ops[K]>>> } & {
  readonly offThread: boolean
  /**
   * Lets the models go (workers stop) between stages that need different ones: the next call starts
   * afresh from the configuration given at creation, so tags learnt and configure() are forgotten.
   */
  release(): Promise<void>
  close(): Promise<void>
}

export function createInProcessRunner(config: EngineConfig): LocalRunner {
  let engine: Engine | null = null
  const e = () => (engine ??= createEngine(config))
  return {
    offThread: false,
    entities: async (posts) => e().entities(posts),
    semantic: async (items) => e().semantic(items),
    categorize: async (items) => e().categorize(items),
    encode: async (texts) => e().encode(texts),
    normalizeTags: async (lists) => e().normalizeTags(lists),
    configure: async (c) => e().configure(c),
    relatedBuild: async (i) => e().relatedBuild(i),
    relatedOpen: async (s) => e().relatedOpen(s),
    related: async (ids, k) => e().related(ids, k),
    release: async () => {
      engine = null
    },
    close: async () => {},
  }
}

/**
 * The local models in a worker thread (Node 22 runs the .ts entry directly), so a long job never
 * blocks the HTTP server. Requests are answered in order; a crashed worker fails what is pending.
 */
export function createWorkerRunner(config: EngineConfig, { background = false, encoder = sharedEncoderHost() }: { background?: boolean; encoder?: EncoderHost } = {}): LocalRunner {
  let seq = 0
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let dead: Error | null = null
  let worker: Worker | null = null
  const start = (): Worker => {
    const lease = encoder.lease()
    const w = new Worker(new URL('./local-worker.ts', import.meta.url), {
      workerData: { config, background, encoderPort: lease.port } satisfies WorkerStart, transferList: [lease.port], resourceLimits: WORKER_LIMITS,
    })
    w.unref()
    w.once('exit', lease.release)
    w.on('message', (m: { seq: number; ok: boolean; result?: unknown; error?: string }) => {
      const p = pending.get(m.seq)
      if (!p) return
      pending.delete(m.seq)
      if (m.ok) p.resolve(m.result)
      else p.reject(new Error(m.error))
    })
    const fail = (e: Error) => {
      // A worker let go by release() ends quietly; any other end fails what it was doing, and the runner.
      if (worker !== w) return
      dead = e
      for (const p of pending.values()) p.reject(e)
      pending.clear()
    }
    w.on('error', fail)
    w.on('exit', (code) => fail(new Error(`the local analysis worker stopped (exit code ${code})`)))
    return w
  }
  const inFlight = new Set<Promise<unknown>>()
  const call = (op: Op, args: unknown[]): Promise<never> => {
    if (dead) return Promise.reject(dead)
    const w = (worker ??= start())
    const p = new Promise((resolve, reject) => {
      const id = ++seq
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      w.ref()
      w.postMessage({ seq: id, op, args })
    }).finally(() => {
      inFlight.delete(p)
      if (pending.size === 0) worker?.unref()
    })
    inFlight.add(p)
    return p as Promise<never>
  }
  return {
    offThread: true,
    entities: (...a) => call('entities', a),
    semantic: (...a) => call('semantic', a),
    categorize: (...a) => call('categorize', a),
    encode: (...a) => call('encode', a),
    normalizeTags: (...a) => call('normalizeTags', a),
    configure: (...a) => call('configure', a),
    relatedBuild: (...a) => call('relatedBuild', a),
    relatedOpen: (...a) => call('relatedOpen', a),
    related: (...a) => call('related', a),
    release: async () => {
      const w = worker
      if (!w) return
      // Answers still owed come first; then the thread and its models go.
      await Promise.allSettled([...inFlight])
      if (worker !== w) return
      worker = null
      await w.terminate()
    },
    close: async () => {
      dead ??= new Error('the local analysis worker was closed')
      const w = worker
      worker = null
      await w?.terminate()
    },
  }
}
