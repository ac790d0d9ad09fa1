import type { MessagePort } from 'node:worker_threads'
import { encodeTexts } from '../local/sentence-encoder.ts'
import type { Engine, EngineConfig } from './local-engine.ts'
import type { Op } from './local-runner.ts'

type Port = Pick<MessagePort, 'on' | 'postMessage'>

/**
 * Answers a runner's requests (local-runner.ts) on `port`, one at a time and in order, with an engine
 * made from `config` on first use. The engine (language models, vocabularies: ~35 MB) is only loaded
 * then, and let go when the port closes.
 */
export function serveEngine(port: Port, config: EngineConfig): void {
  let engine: Promise<Engine> | null = null
  const engineOf = () => (engine ??= import('./local-engine.ts').then(({ createEngine }) => createEngine(config)))
  let queue: Promise<void> = Promise.resolve()
  port.on('message', (m: { seq?: number; op: Op; args: unknown[] }) => {
    if (m.seq === undefined) return // an encoder request (encoder-port.ts) on a shared port
    queue = queue.then(async () => {
      try {
        // Encoding alone needs no engine: a worker asked only for vectors never loads one.
        const result = m.op === 'encode' ? await encodeTexts(m.args[0] as string[]) : await run(await engineOf(), m.op, m.args)
        port.postMessage({ seq: m.seq, ok: true, result })
      } catch (e) {
        port.postMessage({ seq: m.seq, ok: false, error: e instanceof Error ? e.message : String(e) })
      }
    })
  })
  port.on('close', () => {
    engine = null
  })
}

const run = (e: Engine, op: Op, args: unknown[]) => (e[op] as (...a: unknown[]) => unknown)(...args)
