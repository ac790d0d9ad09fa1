import { embedText, loadWordVectors } from '../ai/words/index.ts'
import type { Embedder, LocalEmbedderOptions } from './embedder.ts'

// Apart from embedder.ts, which loads the AI modules: the vector thread makes this embedder too.

/** Search's own vectors (post text, tags, summary, image text); distinct from the pipeline's 'sheaf-wv100'. */
export const SEARCH_LOCAL_MODEL = 'sheaf-search-wv100'

export function createLocalEmbedder({ resourcesDir }: LocalEmbedderOptions = {}): Embedder & { embedNow(text: string): Float32Array } {
  const table = () => loadWordVectors(resourcesDir)
  return {
    model: SEARCH_LOCAL_MODEL,
    local: true,
    onThread: { resourcesDir },
    embed: async (texts) => texts.map((t) => embedText(t, table())),
    embedNow: (text) => embedText(text, table()),
  }
}
