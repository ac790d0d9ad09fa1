import { parentPort, type MessagePort } from 'node:worker_threads'
import { serveEncoder } from '../local/encoder-port.ts'
import { loadModel, sentenceEncoder, useSentenceEncoder, type SentenceEncoder } from '../local/sentence-encoder.ts'
import type { EmbedBatch } from '../local/use-lite-onnx.ts'
import type { EncoderPriority } from './encoder-host.ts'
import { serveEngine } from './engine-port.ts'
import type { EngineConfig } from './local-engine.ts'

/**
 * The thread that holds the process's one sentence model (encoder-host.ts). Every port it is given is
 * served at once: encoder requests, and a runner's requests when the port came with an engine's
 * configuration. The model runs one batch of texts at a time, a query's before a job's.
 */
export function serveModel(): void {
  let model: Promise<EmbedBatch> | null = null
  const modelNow = () => (model ??= loadModel().catch((e: unknown) => {
    model = null
    throw e
  }))

  const waiting: Record<EncoderPriority, Array<() => void>> = { query: [], batch: [] }
  let busy = false
  /** One model call at a time; whoever waits for the next is a query first, then jobs in arrival order. */
  const turn = async <T>(priority: EncoderPriority, work: () => Promise<T>): Promise<T> => {
    if (busy) await new Promise<void>((go) => waiting[priority].push(go))
    busy = true
    try {
      return await work()
    } finally {
      const next = waiting.query.shift() ?? waiting.batch.shift()
      if (next) next()
      else busy = false
    }
  }
  const encoders: Record<EncoderPriority, SentenceEncoder> = {
    query: sentenceEncoder((texts) => turn('query', async () => (await modelNow())(texts))),
    batch: sentenceEncoder((texts) => turn('batch', async () => (await modelNow())(texts))),
  }
  // Engines in this thread (a runner's) encode as jobs do.
  useSentenceEncoder(encoders.batch)

  parentPort!.on('message', ({ port, priority, config }: { port: MessagePort; priority: EncoderPriority; config: EngineConfig | null }) => {
    serveEncoder(port, (texts) => encoders[priority].encode(texts))
    if (config) serveEngine(port, config)
  })
}
