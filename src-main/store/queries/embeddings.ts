import { idList, stmt, type Db } from '../connection.ts'

/**
 * Sentence vectors are stored little-endian; float32 unless `encoding` says int8. Every write takes the
 * next embedding_version count as its seq (an upsert keeps the row's place, so the rowid cannot say it changed).
 */
export function writeEmbedding(db: Db, e: { bookmarkId: number; model: string; vector: Float32Array; contentHash: string }): void {
  const seq = stmt(db, 'UPDATE embedding_version SET n = n + 1 WHERE id = 1 RETURNING n').pluck().get() as number
  const buf = Buffer.from(e.vector.buffer, e.vector.byteOffset, e.vector.byteLength)
  stmt(db, `INSERT INTO embeddings (bookmark_id, model, dim, encoding, vector, content_hash, seq) VALUES (?, ?, ?, 'f32', ?, ?, ?)
    ON CONFLICT (bookmark_id, model) DO UPDATE SET dim = excluded.dim, encoding = excluded.encoding, vector = excluded.vector,
    content_hash = excluded.content_hash, seq = excluded.seq`)
    .run(e.bookmarkId, e.model, e.vector.length, buf, e.contentHash, seq)
}

/** Decodes a stored vector (f32 or i8 scaled to [-1, 1]). */
export const decodeVector = (buf: Buffer, dim: number, encoding: 'f32' | 'i8'): Float32Array => decodeInto(buf, encoding, new Float32Array(dim))

/** Decodes a stored vector into `out` (its length is the vector's dim): the one decoder of stored vectors. */
export function decodeInto(buf: Buffer, encoding: 'f32' | 'i8', out: Float32Array): Float32Array {
  if (encoding === 'i8') {
    const v = new Int8Array(buf.buffer, buf.byteOffset, out.length)
    for (let i = 0; i < out.length; i++) out[i] = v[i] / 127
    return out
  }
  // One copy, byte for byte (the blob's offset need not be 4-aligned).
  new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(buf.subarray(0, out.byteLength))
  return out
}

/**
 * `+model` keeps SQLite on the primary key (bookmark_id, model), read from `afterId` in order: on the
 * (model, seq) index it read all of the model's rows and sorted them, vectors included, for every page
 * (230 ms a page of 2,000 at 100,000 posts, against 7 ms).
 */
const EACH_EMBEDDING_SQL = 'SELECT bookmark_id AS id, dim, encoding, vector FROM embeddings WHERE +model = ? AND bookmark_id > ? ORDER BY bookmark_id LIMIT ?'

/**
 * One page of a model's vectors in id order (id > afterId), so a big load can yield between pages: each
 * row is decoded into one scratch array that `visit` must copy from (a load of every vector would
 * otherwise leave 100,000 arrays of 2 KB to the collector). Returns the last id visited (afterId when none).
 */
export function eachEmbedding(db: Db, model: string, afterId: number, limit: number, visit: (id: number, vector: Float32Array) => void): number {
  let last = afterId
  let scratch = new Float32Array(0)
  const rows = stmt(db, EACH_EMBEDDING_SQL)
    .iterate(model, afterId, limit) as IterableIterator<{ id: number; dim: number; encoding: 'f32' | 'i8'; vector: Buffer }>
  for (const r of rows) {
    if (scratch.length !== r.dim) scratch = new Float32Array(r.dim)
    decodeInto(r.vector, r.encoding, scratch)
    visit(r.id, scratch)
    last = r.id
  }
  return last
}

/** The posts with a vector of this model, in id order (as eachEmbedding visits them). */
export const embeddingIds = (db: Db, model: string): Int32Array =>
  Int32Array.from(stmt(db, 'SELECT bookmark_id FROM embeddings WHERE +model = ? ORDER BY bookmark_id').pluck().all(model) as number[])

export const countEmbeddings = (db: Db, model: string): number =>
  stmt(db, 'SELECT count(*) FROM embeddings WHERE model = ?').pluck().get(model) as number

/** Vectors of one model for the given posts. */
export function embeddingsFor(db: Db, model: string, ids: readonly number[]): Map<number, Float32Array> {
  const rows = ids.length === 0 ? [] : stmt(db, `SELECT bookmark_id AS id, dim, encoding, vector FROM embeddings WHERE model = ?
    AND bookmark_id IN (SELECT value FROM json_each(?))`).all(model, idList(ids)) as Array<{ id: number; dim: number; encoding: 'f32' | 'i8'; vector: Buffer }>
  return new Map(rows.map((r) => [r.id, decodeVector(r.vector, r.dim, r.encoding)]))
}
