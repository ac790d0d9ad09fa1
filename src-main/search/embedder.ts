import { LOCAL_EMBEDDING_MODEL, sharedEncoderHost, type EncoderHost } from '../ai/index.ts'

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
  /** What createLocalEmbedder needs to make this embedder again on another thread (the vector thread). */
  readonly onThread?: LocalEmbedderOptions
}

export interface LocalEmbedderOptions { resourcesDir?: string }

export { createLocalEmbedder, SEARCH_LOCAL_MODEL } from './local-embedder.ts'

/**
 * The sentence encoder's vectors: the pipeline stores one per analysed post; a query is encoded by
 * the process's one sentence model (encoder-host.ts), ahead of any job's posts (~1.4-2 ms of CPU alone,
 * less when queries share a call: model-thread.ts; the first after the model's thread has idled out
 * also waits for it to load, ~2 s).
 */
export function createEncoderEmbedder({ host = sharedEncoderHost() }: { host?: EncoderHost } = {}): Embedder {
  return {
    model: LOCAL_EMBEDDING_MODEL,
    local: true,
    filledBy: 'pipeline',
    // Unrelated posts sit at 0.1-0.3 for this model; 0.4 measured best on the judged search set (MRR@10 0.737 vs 0.729 at 0.35).
    cosineFloor: 0.4,
    embed: (texts) => host.encode(texts),
  }
}
