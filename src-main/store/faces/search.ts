/**
 * The store as src-main/search/ sees it: the full-text index and its queue, the vector queue and vectors,
 * filters and result rows. Every function takes the opaque `Db` that openDatabase returns; nothing else of the
 * store is search's to call.
 */
export { dataStamp, inTransaction, isOpen, libraryStamp, readTransaction, transaction, type Db } from '../db.ts'
export {
  categoryForSearch, hasSearchFilter, searchBacklog, searchDocuments, searchEmbeddingInputs, searchEmbeddingsFor, searchExistingIds, searchFilteredIds,
  searchFilterIds, searchFtsQueueSize, searchHasMatch, searchHitCategories, searchHitMedia, searchHitRows, searchIdsWithoutEmbedding,
  searchEmbeddingsChanged, searchEmbeddingsRemoved, searchEmbeddingVersion, searchIndexInBackground, searchIndexQueued, searchLexical, searchMatchCount, searchMatchingAmong, searchNewest, searchPostCount,
  searchQueuePeek, searchQueueRemove, searchQueueSize, searchQuick, searchReindexRows, searchVocabulary,
  type SearchDocument, type SearchFilter, type SearchStoredEmbedding,
} from '../queries/search.ts'
export { searchQueuedMatching } from '../queries/text-match.ts'
export { writeEmbedding } from '../queries/embeddings.ts'
