import type { MessagePort } from 'node:worker_threads'
import { ENCODER_DIM, ENCODER_MODEL, type SentenceEncoder } from './sentence-encoder.ts'

/**
 * The sentence model asked across threads: one thread holds the model (encoder-host) and serves any
 * number of ports; a thread with a port encodes through it as if the model were its own.
 */
type Request = { id: number; texts: readonly string[] }
type Reply = { id: number; vectors?: Float32Array[]; error?: string }

/** Answers every request that arrives on `port` with `encode`, as many at once as come. */
export function serveEncoder(port: MessagePort, encode: (texts: readonly string[]) => Promise<Float32Array[]>): void {
  port.on('message', ({ id, texts }: Partial<Request>) => {
    if (id === undefined || !texts) return // a runner's request (engine-port.ts) on a shared port
    encode(texts).then(
      (vectors) => port.postMessage({ id, vectors } satisfies Reply, vectors.map((v) => v.buffer as ArrayBuffer)),
      (e: unknown) => port.postMessage({ id, error: e instanceof Error ? e.message : String(e) } satisfies Reply),
    )
  })
}

/** A SentenceEncoder whose model is in the thread at the other end of `port`. */
export function encoderOverPort(port: MessagePort): SentenceEncoder & { readonly pending: number } {
  let seq = 0
  let closed: Error | null = null
  const waiting = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>()
  const settle = () => {
    if (waiting.size === 0) port.unref()
  }
  port.on('message', ({ id, vectors, error }: Partial<Reply>) => {
    const w = id === undefined ? undefined : waiting.get(id)
    if (!w) return
    waiting.delete(id!)
    if (vectors) w.resolve(vectors)
    else w.reject(new Error(error))
    settle()
  })
  port.on('close', () => {
    closed = new Error('the sentence model stopped (its thread ended)')
    for (const w of waiting.values()) w.reject(closed)
    waiting.clear()
  })
  port.unref()
  return {
    model: ENCODER_MODEL,
    dim: ENCODER_DIM,
    get pending() {
      return waiting.size
    },
    encode(texts) {
      if (closed) return Promise.reject(closed)
      if (texts.length === 0) return Promise.resolve([])
      return new Promise((resolve, reject) => {
        const id = ++seq
        waiting.set(id, { resolve, reject })
        port.ref()
        port.postMessage({ id, texts } satisfies Request)
      })
    },
  }
}
