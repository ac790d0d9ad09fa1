/**
 * Heap limits of every model worker. A worker holds ~50 MB after a full collection at 100,000 posts;
 * uncapped, V8 let each grow to ~200 MB between collections (bench/pipeline.ts: 880-1,010 MB peak for
 * the process, 780-900 with the cap). The young generation's default lets each worker keep 32 MB of
 * new space; at 12 it keeps 8 MB, ~24 MB less resident per worker for a few more minor collections.
 */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 12 }
