/**
 * The store's face for a worker thread with a connection of its own (the vector thread, the word
 * memory's build): the plain SQLite connection and the few statements it runs, without drizzle or the
 * other queries (loading those took a new thread 0.8 s of a core, at normal priority). Imported
 * through store/index.ts (and the AI's index), a worker compiled those modules again in its own
 * isolate: the thread added 74-76 MB to the process's RSS at its peak and 49-53 MB idle, against 36 MB
 * with this face (bench/vector-thread-memory.ts, 5,000 posts).
 */
export { attachDatabase, detachDatabase, type Db, transaction } from '../connection.ts'
export { writeEmbedding } from '../queries/embeddings.ts'
export {
  searchEmbeddingInputs, searchEmbeddingsFor, searchExistingIds, searchQueuePeek, searchQueueRemove, type SearchStoredEmbedding,
} from '../queries/vector-queue.ts'
export { readWordIndex } from '../queries/word-memory.ts'
