import { idList, stmt, type Db } from '../db.ts'

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
export function decodeVector(buf: Buffer, dim: number, encoding: 'f32' | 'i8'): Float32Array {
  if (encoding === 'i8') {
    const out = new Float32Array(dim)
    for (let i = 0; i < dim; i++) out[i] = buf.readInt8(i) / 127
    return out
  }
  // One copy, byte for byte (the blob's offset need not be 4-aligned): a large load makes ~100,000 of these.
  const out = new Float32Array(dim)
  new Uint8Array(out.buffer).set(buf.subarray(0, dim * 4))
  return out
}

/** One page of a model's vectors in id order (id > afterId), so a big load can yield between pages. */
export function embeddingPage(db: Db, model: string, afterId: number, limit: number): Array<{ id: number; vector: Float32Array }> {
  const rows = stmt(db, 'SELECT bookmark_id AS id, dim, encoding, vector FROM embeddings WHERE model = ? AND bookmark_id > ? ORDER BY bookmark_id LIMIT ?')
    .all(model, afterId, limit) as Array<{ id: number; dim: number; encoding: 'f32' | 'i8'; vector: Buffer }>
  return rows.map((r) => ({ id: r.id, vector: decodeVector(r.vector, r.dim, r.encoding) }))
}

export const countEmbeddings = (db: Db, model: string): number =>
  stmt(db, 'SELECT count(*) FROM embeddings WHERE model = ?').pluck().get(model) as number

/** Vectors of one model for the given posts. */
export function embeddingsFor(db: Db, model: string, ids: readonly number[]): Map<number, Float32Array> {
  const rows = ids.length === 0 ? [] : stmt(db, `SELECT bookmark_id AS id, dim, encoding, vector FROM embeddings WHERE model = ?
    AND bookmark_id IN (SELECT value FROM json_each(?))`).all(model, idList(ids)) as Array<{ id: number; dim: number; encoding: 'f32' | 'i8'; vector: Buffer }>
  return new Map(rows.map((r) => [r.id, decodeVector(r.vector, r.dim, r.encoding)]))
}
