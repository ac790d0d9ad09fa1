export { startNicedWorker, workerNice } from './thread-priority.ts'
export { createBatchPacing, createPacer, MEASURE_PAUSE_MS, pauseAfter, shareAt, type BatchPacingOptions, type Pacer, type PacerOptions } from './pacing.ts'
export { heapGrowingPercent, holdHeapGrowthDown, limitHeapGrowth, HEAP_GROWING_PERCENT, IDLE_HEAP_GROWING_PERCENT } from './heap-growth.ts'
