/**
 * The word vectors alone, for a worker thread that embeds with them (the vector thread): ai/local's
 * index loads every offline analyser with them, each compiled again in the worker's own isolate.
 */
export { embedText, loadWordVectors } from '../local/word-vectors.ts'
