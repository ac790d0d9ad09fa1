export { lowerThreadPriority } from './thread-priority.ts'
