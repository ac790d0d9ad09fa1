/**
 * The store as src-main/duplicates/ sees it: the sentence vectors and texts that find near-identical posts.
 * Every function takes the opaque `Db` that openDatabase returns; nothing else of the store is duplicates's to
 * call.
 */
export type { Db } from '../db.ts'
export { embeddingsFor } from '../queries/embeddings.ts'
export { textsByIds } from '../queries/post-keys.ts'
