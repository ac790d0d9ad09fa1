import { createHash } from 'node:crypto'
// On the store's face for threads: the vector thread imports this module too.
import {
  searchEmbeddingInputs, searchEmbeddingsFor, searchExistingIds, searchQueueRemove, writeEmbedding, type Db, type SearchStoredEmbedding,
} from '../store/thread/index.ts'
import type { Embedder } from './embedder.ts'

export const inputHash = (input: string): string => createHash('sha1').update(input).digest('hex').slice(0, 16)

/** What a batch of the vector queue came to: what an index in memory applies. */
export interface QueuedVectors {
  /** Posts deleted since they were queued. */
  dead: number[]
  /** Stored vectors that are current (or the pipeline's to write). */
  current: SearchStoredEmbedding[]
  /** Vectors computed and written now. */
  written: Array<{ id: number; vector: Float32Array }>
  /** Posts an embedder without embedNow must embed later, with the stale vector kept meanwhile. */
  missing: Array<{ id: number; stale?: SearchStoredEmbedding }>
}

/**
 * Brings the vectors of these queued posts up to date in the embeddings table and takes them off the
 * queue, inside the caller's write transaction, on whichever thread and connection it runs (the vector
 * thread, or the HTTP thread for a short backlog). `ready`: vectors already computed, by inputHash of
 * their input (the vector thread computes them before it takes the write lock).
 */
export function writeQueuedVectors(db: Db, embedder: Embedder, ids: readonly number[], ready?: ReadonlyMap<string, Float32Array>): QueuedVectors {
  const alive = new Set(searchExistingIds(db, ids))
  const out: QueuedVectors = { dead: ids.filter((id) => !alive.has(id)), current: [], written: [], missing: [] }
  const stored = new Map(searchEmbeddingsFor(db, embedder.model, [...alive]).map((e) => [e.bookmarkId, e]))
  for (const { id, input } of searchEmbeddingInputs(db, [...alive])) {
    const hash = inputHash(input)
    const have = stored.get(id)
    if (have && (embedder.filledBy === 'pipeline' || have.contentHash === hash)) out.current.push(have)
    else if (embedder.embedNow) {
      const vector = ready?.get(hash) ?? embedder.embedNow(input)
      writeEmbedding(db, { bookmarkId: id, model: embedder.model, vector, contentHash: hash })
      out.written.push({ id, vector })
    } else out.missing.push({ id, stale: have })
  }
  searchQueueRemove(db, ids)
  return out
}

/** The vectors of these posts' current inputs, by inputHash, computed outside any transaction. */
export function embedInputs(db: Db, embedder: Embedder & { embedNow(text: string): Float32Array }, ids: readonly number[]): Map<string, Float32Array> {
  return new Map(searchEmbeddingInputs(db, ids).map(({ input }) => [inputHash(input), embedder.embedNow(input)]))
}
