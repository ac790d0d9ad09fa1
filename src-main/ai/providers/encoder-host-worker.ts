import { parentPort, type MessagePort } from 'node:worker_threads'
import { lowerThreadPriority } from '../../background/index.ts'
import { serveEncoder } from '../local/encoder-port.ts'
import { loadModel, sentenceEncoder } from '../local/sentence-encoder.ts'
import type { EmbedBatch } from '../local/use-lite-onnx.ts'
import type { EncoderPriority } from './encoder-host.ts'

// Worker-thread entry of the process's one sentence model (encoder-host.ts). Every port it is given
// is served at once; the model runs one batch of texts at a time, a query's before a job's.
lowerThreadPriority()

let model: Promise<EmbedBatch> | null = null
const modelNow = () => (model ??= loadModel().catch((e: unknown) => {
  model = null
  throw e
}))

const waiting: Record<EncoderPriority, Array<() => void>> = { query: [], batch: [] }
let busy = false
/** One model call at a time; whoever waits for the next is a query first, then jobs in arrival order. */
async function turn<T>(priority: EncoderPriority, work: () => Promise<T>): Promise<T> {
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

parentPort!.on('message', ({ port, priority }: { port: MessagePort; priority: EncoderPriority }) => {
  const encoder = sentenceEncoder((texts) => turn(priority, async () => (await modelNow())(texts)))
  serveEncoder(port, (texts) => encoder.encode(texts))
})
