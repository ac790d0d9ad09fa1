export { lowerThreadPriority, workerNice } from './thread-priority.ts'
export { createBatchPacing, createPacer, pauseAfter, shareAt, type BatchPacingOptions, type Pacer, type PacerOptions } from './pacing.ts'
