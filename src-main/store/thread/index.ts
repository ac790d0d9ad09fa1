/**
 * The store's face for a worker thread with a connection of its own (the vector thread): the plain
 * SQLite connection and the few statements it runs, without drizzle or the other queries. Imported
 * through store/index.ts, a worker loaded the store's modules again in its own isolate: ~25 MB of the
 * process's RSS while it lived (bench/vector-thread-memory.ts).
 */
export { attachDatabase, detachDatabase, type Db, transaction } from '../connection.ts'
export { writeEmbedding } from '../queries/embeddings.ts'
export {
  searchEmbeddingInputs, searchEmbeddingsFor, searchExistingIds, searchQueuePeek, searchQueueRemove, type SearchStoredEmbedding,
} from '../queries/vector-queue.ts'
