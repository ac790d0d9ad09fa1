import { createWorkerRunner, LOCAL_EMBEDDING_MODEL, type LocalRunner } from '../ai/index.ts'
import { embedText, loadWordVectors } from '../ai/local/index.ts'

/**
 * Turns texts into sentence vectors. The local one (word vectors, offline) answers at once; a
 * provider's embedding model answers over the network (adapt `AiProvider.embed` to this shape).
 */
export interface Embedder {
  /** Stored in embeddings.model; vectors of different models are never compared. */
  readonly model: string
  readonly local: boolean
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>
  /** Local embedders also embed synchronously, so queued posts can be caught up inside a query. */
  embedNow?(text: string): Float32Array
  /** Below this cosine a neighbour is unrelated (default 0.35, set for the word vectors). */
  readonly cosineFloor?: number
  /** The pipeline writes this model's post vectors; search only reads them (and embeds queries). */
  readonly filledBy?: 'pipeline'
  /** False while embedding would start a second copy of a model another thread holds; the word vectors answer meanwhile. */
  available?(): boolean
  close?(): Promise<void>
}

/** Search's own vectors (post text, tags, summary, image text); distinct from the pipeline's 'sheaf-wv100'. */
export const SEARCH_LOCAL_MODEL = 'sheaf-search-wv100'

export function createLocalEmbedder({ resourcesDir }: { resourcesDir?: string } = {}): Embedder {
  const table = () => loadWordVectors(resourcesDir)
  return {
    model: SEARCH_LOCAL_MODEL,
    local: true,
    embed: async (texts) => texts.map((t) => embedText(t, table())),
    embedNow: (text) => embedText(text, table()),
  }
}

/** A query worker idle this long lets its model go (~160 MB); the next query starts it again (~0.3 s). */
const ENCODER_IDLE_MS = 120_000

/**
 * The sentence encoder's vectors: the pipeline stores one per analysed post; queries are encoded in
 * a worker thread of their own (started on the first query, ~10 ms a query). While `deferWhile()`
 * (a pipeline job holds the model in its worker) it is not started: two copies would add ~130 MB at
 * the peak of a 100,000-post job.
 */
export function createEncoderEmbedder({ idleMs = ENCODER_IDLE_MS, deferWhile = () => false }: { idleMs?: number; deferWhile?: () => boolean } = {}): Embedder {
  let runner: LocalRunner | null = null
  let idle: NodeJS.Timeout | null = null
  const close = async () => {
    if (idle) clearTimeout(idle)
    idle = null
    const r = runner
    runner = null
    await r?.close()
  }
  return {
    model: LOCAL_EMBEDDING_MODEL,
    local: true,
    filledBy: 'pipeline',
    // Unrelated posts sit at 0.1-0.3 for this model; 0.4 measured best on the judged search set (MRR@10 0.737 vs 0.729 at 0.35).
    cosineFloor: 0.4,
    available: () => runner !== null || !deferWhile(),
    async embed(texts) {
      if (idle) clearTimeout(idle)
      const r = (runner ??= createWorkerRunner({ existingTags: [], categories: [], examples: [] }))
      try {
        return await r.encode(texts)
      } finally {
        idle = setTimeout(() => void close(), idleMs)
        idle.unref()
      }
    },
    close,
  }
}
