import { Worker, type MessagePort } from 'node:worker_threads'
import { startNicedWorker } from '../../background/index.ts'
import { sharedEncoderHost, type EncoderHost } from './encoder-host.ts'
import { createEngine, type Engine, type EngineConfig } from './local-engine.ts'
import { WORKER_LIMITS } from './worker-limits.ts'

type Ops = Pick<Engine, 'entities' | 'semantic' | 'categorize' | 'encode' | 'normalizeTags' | 'configure' | 'relatedBuild' | 'relatedOpen' | 'related' | 'relatedClose'>
export type Op = keyof Ops
/**
 * What a worker starts from; a background worker yields the CPU to requests (see startNicedWorker).
 * A worker with an `encoderPort` takes its sentence vectors through it; the one without holds the
 * process's model and serves the ports it is given (encoder-host.ts).
 */
export type WorkerStart = { config: EngineConfig; encoderPort: MessagePort } | { model: true }

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
    relatedClose: async () => engine?.relatedClose(),
    release: async () => {
      engine = null
    },
    close: async () => {},
  }
}

/** How a runner reaches the thread its engine lives in: a worker of its own, or the model's thread. */
interface Channel {
  post(message: unknown): void
  /** Keeps the process alive while answers are owed. */
  hold(owed: boolean): void
  stop(): Promise<void>
}
type Open = (onMessage: (m: Reply) => void, onEnd: (e: Error) => void) => Channel
type Reply = { seq: number; ok: boolean; result?: unknown; error?: string }

/**
 * The local models in a worker thread of their own (Node 22 runs the .ts entry directly), so a long
 * job never blocks the HTTP server; their sentence vectors come from the process's one model.
 */
export function createWorkerRunner(config: EngineConfig, { background = false, encoder = sharedEncoderHost() }: { background?: boolean; encoder?: EncoderHost } = {}): LocalRunner {
  return createChannelRunner((onMessage, onEnd) => {
    const lease = encoder.lease()
    const options = { workerData: { config, encoderPort: lease.port } satisfies WorkerStart, transferList: [lease.port], resourceLimits: WORKER_LIMITS }
    const entry = new URL('./local-worker.ts', import.meta.url)
    const w = background ? startNicedWorker(entry, options) : new Worker(entry, options)
    w.unref()
    w.once('exit', lease.release)
    w.on('message', onMessage)
    w.on('error', onEnd)
    w.on('exit', (code) => onEnd(new Error(`the local analysis worker stopped (exit code ${code})`)))
    return { post: (m) => w.postMessage(m), hold: (owed) => (owed ? w.ref() : w.unref()), stop: async () => void (await w.terminate()) }
  })
}

/** The local models in the thread that holds the sentence model (encoder-host.ts): no thread of their own. */
export function createModelThreadRunner(config: EngineConfig, { encoder = sharedEncoderHost() }: { encoder?: EncoderHost } = {}): LocalRunner {
  return createChannelRunner((onMessage, onEnd) => {
    const lease = encoder.lease(config)
    lease.port.on('message', (m: Reply | { id: number }) => {
      if ('seq' in m) onMessage(m)
    })
    lease.port.on('close', () => onEnd(new Error('the sentence model\'s thread stopped')))
    return {
      post: (m) => lease.port.postMessage(m),
      hold: (owed) => (owed ? lease.port.ref() : lease.port.unref()),
      stop: async () => {
        lease.port.close()
        lease.release()
      },
    }
  })
}

/** Requests are answered in order; a channel that ends unasked fails what is pending, and the runner. */
function createChannelRunner(open: Open): LocalRunner {
  let seq = 0
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let dead: Error | null = null
  let channel: Channel | null = null
  const start = (): Channel => {
    const c: Channel = open((m) => {
      const p = pending.get(m.seq)
      if (!p) return
      pending.delete(m.seq)
      if (m.ok) p.resolve(m.result)
      else p.reject(new Error(m.error))
    }, (e) => {
      // A channel let go by release() ends quietly; any other end fails what it was doing, and the runner.
      if (channel !== c) return
      dead = e
      for (const p of pending.values()) p.reject(e)
      pending.clear()
    })
    return c
  }
  const inFlight = new Set<Promise<unknown>>()
  const call = (op: Op, args: unknown[]): Promise<never> => {
    if (dead) return Promise.reject(dead)
    const c = (channel ??= start())
    const p = new Promise((resolve, reject) => {
      const id = ++seq
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      c.hold(true)
      c.post({ seq: id, op, args })
    }).finally(() => {
      inFlight.delete(p)
      if (pending.size === 0) channel?.hold(false)
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
    // No thread to start just to close what it does not hold.
    relatedClose: async () => (channel ? call('relatedClose', []) : undefined),
    release: async () => {
      const c = channel
      if (!c) return
      // Answers still owed come first; then the channel and its models go.
      await Promise.allSettled([...inFlight])
      if (channel !== c) return
      channel = null
      await c.stop()
    },
    close: async () => {
      dead ??= new Error('the local analysis worker was closed')
      const c = channel
      channel = null
      await c?.stop()
    },
  }
}
