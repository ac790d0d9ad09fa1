export { createSearch, titleOf, type Search, type SearchDeps, type SearchMode, type SearchOptions } from './search-service.ts'
export { createLocalEmbedder, SEARCH_LOCAL_MODEL, type Embedder } from './embedder.ts'
export { runRerank, type Reranker, type RerankCandidate, type RerankedItem } from './rerank.ts'
export { parseQuery, type ParsedQuery } from './query-parser.ts'
