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
