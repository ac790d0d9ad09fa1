import { Worker } from 'node:worker_threads'
import { bitsOf, type AllowedIds, type Hit, type ScanView } from './scan.ts'

/**
 * The scan thread: a long-lived worker that runs the flat index's whole-index scans (scan.ts, the same
 * code as inline) over the index's shared memory, so the thread that serves requests only posts the
 * question's vector and awaits the hits. One thread serves every index of a search service (each by its
 * number); it starts with the first scan asked of it and ends with close(). It only reads: the index
 * applies no write while a scan it asked for is under way (flat-index.ts). If it cannot start, fails or
 * exits, it says so once and every scan runs inline from then on (each scan in flight is run again inline).
 */
export interface ScanThread {
  /** A number for an index whose scans come here. */
  register(): number
  /** False once it cannot scan (it could not start, it died, or it was closed): scan inline. */
  readonly usable: boolean
  /** Scans it has answered. */
  readonly scanned: number
  scan(ask: ScanAsk): Promise<Hit[]>
  /** Ends the thread; resolves once it has exited. */
  close(): Promise<void>
}

export interface ScanAsk {
  /** The index's number (register). */
  index: number
  codesFrom: number
  /** The index's memory, on its first scan and whenever it moved since its last (growth, a lent row changed). */
  memory?: ScanView
  query: Float32Array
  k: number
  /** Rows [0, size) are scanned. */
  size: number
  allowed?: AllowedIds
}

/**
 * What is posted: the allowed posts as a bitmap by id (a kept filter's over shared memory, not copied);
 * `key` names a kept one, so the thread keeps its reach between scans (0: used once).
 */
export type ToScanThread = Omit<ScanAsk, 'allowed'> & { allowed?: { key: number; bits: Uint32Array; size: number } }
export type FromScanThread = { ids: Int32Array; scores: Float32Array } | { failed: string }

/**
 * Its garbage is a few small arrays and up to 1,000 hits a scan, its live data a few scratch arrays: a small
 * young generation keeps the thread's own heap small (V8's default let it grow to tens of MB).
 */
const LIMITS = { maxYoungGenerationSizeMb: 2 }

type Waiter = { resolve(hits: Hit[]): void; reject(e: Error): void }

export function createScanThread({ log }: { log?: { warn(msg: string, e?: unknown): void } } = {}): ScanThread {
  let worker: Worker | null = null
  let usable = true
  let exited: Promise<void> = Promise.resolve()
  let indexes = 0
  let scanned = 0
  /** Replies come in the order asked: the thread scans one at a time. */
  const waiting: Waiter[] = []
  const keys = new WeakMap<AllowedIds, number>()
  let nextKey = 1
  const keyOf = (allowed: AllowedIds): number => {
    let key = keys.get(allowed)
    if (key === undefined) keys.set(allowed, (key = nextKey++))
    return key
  }

  const fail = (why: string, e?: unknown) => {
    if (usable) log?.warn(`search: the vector scan thread ${why}; scanning on this thread from now on`, e)
    usable = false
    for (const w of waiting.splice(0)) w.reject(new Error(`the vector scan thread ${why}`))
  }
  const start = (): Worker => {
    const w = new Worker(new URL('./scan-worker.ts', import.meta.url), { name: 'sheaf-scan', resourceLimits: LIMITS })
    // Held only while a scan is awaited: an idle thread keeps no process alive.
    w.unref()
    exited = new Promise((resolve) => w.once('exit', () => resolve()))
    w.on('message', (m: FromScanThread) => {
      const next = waiting.shift()
      if (waiting.length === 0) w.unref()
      if (!next) return
      if ('failed' in m) next.reject(new Error(m.failed))
      else {
        scanned++
        next.resolve(Array.from(m.ids, (id, i) => ({ id, score: m.scores[i] })))
      }
    })
    w.once('error', (e) => fail('failed', e))
    w.once('exit', () => fail('exited'))
    return w
  }
  const post = (ask: ScanAsk): ToScanThread => {
    const { allowed, query, ...rest } = ask
    // A view into a larger buffer (a batch of the model's vectors) would be posted whole.
    const own = query.byteLength === query.buffer.byteLength ? query : query.slice()
    return allowed ? { ...rest, query: own, allowed: { key: allowed.bits ? keyOf(allowed) : 0, bits: bitsOf(allowed), size: allowed.size } }
      : { ...rest, query: own }
  }

  return {
    register: () => ++indexes,
    get usable() {
      return usable
    },
    get scanned() {
      return scanned
    },
    scan(ask) {
      if (!usable) return Promise.reject(new Error('the vector scan thread is not running'))
      try {
        worker ??= start()
      } catch (e) {
        fail('could not start', e)
        return Promise.reject(e instanceof Error ? e : new Error(String(e)))
      }
      const w = worker
      return new Promise<Hit[]>((resolve, reject) => {
        if (waiting.length === 0) w.ref()
        waiting.push({ resolve, reject })
        w.postMessage(post(ask))
      })
    },
    async close() {
      usable = false
      for (const w of waiting.splice(0)) w.reject(new Error('the vector scan thread was closed'))
      await worker?.terminate()
      await exited
    },
  }
}
