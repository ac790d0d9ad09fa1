import type { Worker } from 'node:worker_threads'
import { startNicedWorker } from '../background/index.ts'
import type { LanguageReply, LanguageRequest } from './language-worker.ts'

/** The language detector on its own worker thread (language-worker.ts): started on first use, stopped with close(). */
export interface DetectorWorker {
  /** The language of each text (null: too short or too close to call); rejects if the worker fails. */
  detect(texts: string[]): Promise<(string | null)[]>
  close(): void
}

/**
 * The detector (eld, ~60 MB with its n-gram tables) and the garbage of its counting stay off the
 * server's thread and go back to the system when the worker stops. One request at a time.
 */
export function detectorWorker(): DetectorWorker {
  let worker: Worker | null = null
  let seq = 0
  let waiting: { seq: number; resolve: (l: (string | null)[]) => void; reject: (e: Error) => void } | null = null

  const fail = (w: Worker, why: string) => {
    if (worker !== w) return // stopped on purpose
    worker = null
    const r = waiting
    waiting = null
    r?.reject(new Error(why))
  }
  const start = (): Worker => {
    const w = startNicedWorker(new URL('./language-worker.ts', import.meta.url))
    w.unref()
    w.on('message', (r: LanguageReply) => {
      if (!waiting || r.seq !== waiting.seq) return
      const p = waiting
      waiting = null
      if ('error' in r) p.reject(new Error(r.error))
      else p.resolve(r.langs)
    })
    w.on('error', (e) => fail(w, e.message))
    w.on('exit', (code) => fail(w, `the language worker stopped (exit code ${code})`))
    return w
  }

  return {
    detect(texts) {
      if (waiting) return Promise.reject(new Error('one language request at a time'))
      worker ??= start()
      const w = worker
      return new Promise((resolve, reject) => {
        waiting = { seq: ++seq, resolve, reject }
        w.postMessage({ seq, texts } satisfies LanguageRequest)
      })
    },
    close() {
      const w = worker
      worker = null
      const r = waiting
      waiting = null
      r?.reject(new Error('the language worker was stopped'))
      void w?.terminate()
    },
  }
}
