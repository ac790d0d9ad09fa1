import { parentPort, type MessagePort } from 'node:worker_threads'
import { encoderPrecision } from '../local/encoder-precision.ts'
import { serveEncoder } from '../local/encoder-port.ts'
import { loadModel, sentenceEncoder, useSentenceEncoder, type SentenceEncoder } from '../local/sentence-encoder.ts'
import type { EmbedBatch, EncoderPrecision, LoadedModel } from '../local/use-lite-onnx.ts'
import type { EncoderPriority } from './encoder-host.ts'
import { serveEngine } from './engine-port.ts'
import type { EngineConfig } from './local-engine.ts'

/**
 * Texts of queries one model call takes at most. A short question costs ~1.3 ms of CPU alone, ~0.8 ms
 * each in a call of 8 and ~0.75 in one of 16 (bench/encoder-onnx.ts questions).
 */
export const QUERY_CALL = 16

/**
 * The thread that holds the process's one sentence model (encoder-host.ts). Every port it is given is
 * served at once: encoder requests, and a runner's requests when the port came with an engine's
 * configuration. The model runs one batch of texts at a time, a query's before a job's.
 */
export function serveModel(): void {
  /**
   * Questions' model (int8 unless SHEAF_ENCODER_INT8=off) and posts' (fp32), each loaded when first asked. While a job holds a
   * port, questions use the posts' model too, and only it is kept: a second session cost ~90 MB of the
   * thread's RSS during a job (docs/load-history.md, stop 33), and a job's posts cost far more CPU than its questions.
   */
  let jobs = 0
  const precisionFor = (use: EncoderPriority) => precisionServing(use, jobs)
  const models: Partial<Record<EncoderPrecision, Promise<LoadedModel>>> = {}
  const modelNow = (use: EncoderPriority) => {
    const precision = precisionFor(use)
    return (models[precision] ??= loadModel(precision).catch((e: unknown) => {
      delete models[precision]
      throw e
    }))
  }

  const waiting: Record<EncoderPriority, Array<() => void>> = { query: [], batch: [] }
  let busy = false
  /**
   * One model call at a time; whoever waits for the next is a query first, then jobs in arrival order.
   * The next is chosen a turn of the event loop after a call ends, once the requests that came during
   * it (the call held this thread) have been read: chosen at once, a job's next call went before them.
   */
  const handOver = () => {
    const next = waiting.query.shift() ?? waiting.batch.shift()
    if (next) next()
    else busy = false
  }
  const turn = async <T>(priority: EncoderPriority, work: () => Promise<T>): Promise<T> => {
    if (busy) await new Promise<void>((go) => waiting[priority].push(go))
    busy = true
    try {
      return await work()
    } finally {
      setImmediate(handOver)
    }
  }
  const encoders: Record<EncoderPriority, SentenceEncoder> = {
    query: sentenceEncoder(gathered((work) => turn('query', work), async (texts) => (await modelNow('query'))(texts))),
    batch: sentenceEncoder((texts) => turn('batch', async () => (await modelNow('batch'))(texts))),
  }
  // Engines in this thread (a runner's) encode as jobs do.
  useSentenceEncoder(encoders.batch)

  /** Lets go of the models not kept now (modelKept), in a turn of its own (no call of one runs). */
  const releaseUnused = () => void turn('batch', async () => {
    for (const precision of Object.keys(models) as EncoderPrecision[]) {
      if (precision === modelKept(jobs)) continue
      const model = models[precision]
      delete models[precision]
      await (await model?.catch(() => null))?.release?.()
    }
  })

  parentPort!.on('message', ({ port, priority, config }: { port: MessagePort; priority: EncoderPriority; config: EngineConfig | null }) => {
    serveEncoder(port, (texts) => encoders[priority].encode(texts))
    if (config) serveEngine(port, config)
    if (priority === 'batch') {
      if (jobs++ === 0) releaseUnused()
      port.once('close', () => {
        if (--jobs === 0) releaseUnused()
      })
    }
  })
}

/** The model that encodes `use`'s texts while `jobs` hold a port: the posts' while any job runs (see serveModel). */
export const precisionServing = (use: EncoderPriority, jobs: number, env: NodeJS.ProcessEnv = process.env): EncoderPrecision =>
  encoderPrecision(jobs > 0 ? 'batch' : use, env)

/**
 * The one model kept loaded. Only a job asks for posts' vectors, so with none running only the questions' model
 * stays: keeping the posts' too held both sessions after every job, and loading the questions' beside it made
 * the server's peak (docs/load-history.md, "Stop 37").
 */
export const modelKept = (jobs: number, env: NodeJS.ProcessEnv = process.env): EncoderPrecision => precisionServing('query', jobs, env)

type Ask = { texts: readonly string[]; resolve: (v: Float32Array[]) => void; reject: (e: unknown) => void }

/**
 * Model calls that wait together go as one. `inTurn` (a turn of the model) is asked once for all that
 * arrive before it starts, and that turn encodes up to QUERY_CALL of their texts in one call of `embed`:
 * what is asked while the model works for someone else shares its next call, and one that finds the
 * model free still goes at once (a turn of the event loop later, so the requests already delivered to
 * this thread join it). A text's vector is bit for bit the same in any call (ordered-sum.ts), so
 * sharing changes the CPU and nothing else.
 */
export function gathered(inTurn: (work: () => Promise<void>) => Promise<void>, embed: EmbedBatch): EmbedBatch {
  const asks: Ask[] = []
  const serve = async (): Promise<void> => {
    await new Promise((go) => setImmediate(go))
    const group = asks.splice(0, countUpTo(asks, QUERY_CALL))
    if (asks.length > 0) void inTurn(serve)
    try {
      const vectors = await embed(group.flatMap((a) => a.texts))
      let at = 0
      for (const a of group) {
        a.resolve(vectors.slice(at, at + a.texts.length))
        at += a.texts.length
      }
    } catch (e) {
      for (const a of group) a.reject(e)
    }
  }
  return (texts) => new Promise((resolve, reject) => {
    asks.push({ texts, resolve, reject })
    if (asks.length === 1) void inTurn(serve)
  })
}

/** How many of the first asks fit in `limit` texts (at least one). */
function countUpTo(asks: readonly Ask[], limit: number): number {
  let texts = asks[0].texts.length
  let n = 1
  while (n < asks.length && texts + asks[n].texts.length <= limit) texts += asks[n++].texts.length
  return n
}
