export { lowerThreadPriority, workerNice } from './thread-priority.ts'
export { createBatchPacing, createPacer, pauseAfter, type BatchPacingOptions, type Pacer, type PacerOptions } from './pacing.ts'
