import type { AiProvider } from '../ai/index.ts'
import type { Embedder } from './embedder.ts'
import { providerEmbedder } from './provider-semantic.ts'
import type { Reranker } from './rerank.ts'

/** A provider's rerank call in search's shape; null for the local provider (it has no judging model). */
export function providerReranker(p: AiProvider): Reranker | null {
  if (p.name === 'local' || !p.rerank) return null
  const rerank = p.rerank.bind(p)
  return {
    name: `${p.name}:${p.model}`,
    rerank: async (query, candidates, signal) => (await rerank(query, candidates, signal)).items,
  }
}

/**
 * Resolves the reranker from the settings at the time of each search, so a provider configured (or
 * switched off) after start applies to the next search. A provider that cannot be built (no key
 * stored) means no reranking, not a failed search.
 */
export function activeReranker(activeProvider: () => Promise<AiProvider | null>, warn?: (msg: string, e?: unknown) => void): () => Promise<Reranker | null> {
  return async () => {
    try {
      const p = await activeProvider()
      return p ? providerReranker(p) : null
    } catch (e) {
      warn?.('search: the configured AI provider is unavailable; searching offline', e)
      return null
    }
  }
}

/** The active provider's embedding model per search (null with local, anthropic, claude-cli or no embedding model). */
export function activeEmbedder(activeProvider: () => Promise<AiProvider | null>): () => Promise<Embedder | null> {
  return async () => {
    try {
      const p = await activeProvider()
      return p ? providerEmbedder(p) : null
    } catch {
      return null
    }
  }
}
