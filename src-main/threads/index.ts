/** Threads: one author's replies to their own posts, assembled from what the library holds. */
export { assembleThreads, type AssembleResult } from './assemble.ts'
export { orderThreads, type Edge, type Place } from './order.ts'
export { linkedPosts, threadOf } from './links.ts'
