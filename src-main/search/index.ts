export { activeEmbedder, activeReranker, createSearch, type Search, type SearchDeps, type SearchMode, type SearchOptions } from './search-service.ts'
export { createLocalEmbedder } from './embedder.ts'
export { providerEmbedder } from './provider-semantic.ts'
export { providerReranker, type Reranker } from './rerank.ts'
