/**
 * Post vectors in memory: int8 rows in shared WebAssembly memory with one kernel module (space.ts: a
 * SIMD dot product, and a popcount over 1-bit codes), read two ways — a flat index kept current post by
 * post and searched by brute force (search, one query at a time; from 20,000 posts by code first, the
 * closest re-scored exactly), and a clustered index built for the whole library at once (each post's
 * nearest posts: related posts and near-duplicate candidates). The vectors themselves are stored in
 * SQLite (`embeddings`); see docs/understanding.md#where-the-vectors-live.
 */
export { simdAvailable } from './space.ts'
export { createFlatIndex, type AllowedIds, type FlatIndex, type LentRows, type Loan } from './flat-index.ts'
export { bitsAllowed } from './scan.ts'
export { createScanThread, type ScanThread } from './scan-thread.ts'
export {
  buildClusteredIndex, clusteredIndexBytes, openClusteredIndex, rowsFor, writeRow,
  type ClusteredIndex, type ClusteredIndexInput, type ClusteredRows, type SharedClusteredIndex,
} from './clustered-index.ts'
