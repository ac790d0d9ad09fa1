export { lowerThreadPriority, workerNice } from './thread-priority.ts'
export { createPacer, pauseAfter, type Pacer, type PacerOptions } from './pacing.ts'
