import { Worker } from 'node:worker_threads'
import { createEngine, type Engine, type EngineConfig } from './local-engine.ts'

type Ops = Pick<Engine, 'entities' | 'semantic' | 'categorize' | 'normalizeTags' | 'configure' | 'relatedBuild' | 'related'>
type Op = keyof Ops

/** The local models behind an async face, so callers do not care whether they run here or in a worker. */
export type LocalRunner = { [K in Op]: (...args: Parameters<Ops[K]>) => Promise<ReturnType<Ops[K]>> } & {
  readonly offThread: boolean
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
    normalizeTags: async (lists) => e().normalizeTags(lists),
    configure: async (c) => e().configure(c),
    relatedBuild: async (i) => e().relatedBuild(i),
    related: async (ids, k) => e().related(ids, k),
    close: async () => {},
  }
}

/**
 * The local models in a worker thread (Node 22 runs the .ts entry directly), so a long job never
 * blocks the HTTP server. Requests are answered in order; a crashed worker fails what is pending.
 */
export function createWorkerRunner(config: EngineConfig): LocalRunner {
  const worker = new Worker(new URL('./local-worker.ts', import.meta.url), { workerData: config })
  worker.unref()
  let seq = 0
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let dead: Error | null = null
  worker.on('message', (m: { seq: number; ok: boolean; result?: unknown; error?: string }) => {
    const p = pending.get(m.seq)
    if (!p) return
    pending.delete(m.seq)
    if (m.ok) p.resolve(m.result)
    else p.reject(new Error(m.error))
  })
  const fail = (e: Error) => {
    dead = e
    for (const p of pending.values()) p.reject(e)
    pending.clear()
  }
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`the local analysis worker stopped (exit code ${code})`)))
  const call = (op: Op, args: unknown[]): Promise<never> => {
    if (dead) return Promise.reject(dead)
    return new Promise((resolve, reject) => {
      const id = ++seq
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      worker.ref()
      worker.postMessage({ seq: id, op, args })
    }).finally(() => {
      if (pending.size === 0) worker.unref()
    }) as Promise<never>
  }
  return {
    offThread: true,
    entities: (...a) => call('entities', a),
    semantic: (...a) => call('semantic', a),
    categorize: (...a) => call('categorize', a),
    normalizeTags: (...a) => call('normalizeTags', a),
    configure: (...a) => call('configure', a),
    relatedBuild: (...a) => call('relatedBuild', a),
    related: (...a) => call('related', a),
    close: async () => {
      dead ??= new Error('the local analysis worker was closed')
      await worker.terminate()
    },
  }
}
