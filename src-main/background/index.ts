export { lowerThreadPriority, workerNice } from './thread-priority.ts'
