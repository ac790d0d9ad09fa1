/**
 * The vector thread's memory, in-process: a new library of `--posts` generated posts (their word vectors
 * queued, as after an import), then the thread of a tree's src-main (`--root`) started on it. Prints this
 * process's RSS before, its peak while the thread empties the queue (sampled every 20 ms), 1 s after the
 * queue is empty (the thread alive and idle) and 2 s after it ended, and the time it took.
 * Usage: node bench/vector-thread-memory.ts [--posts 5000] [--root DIR]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { iteratePosts } from './generate-library.ts'

const { values } = parseArgs({ options: { posts: { type: 'string', default: '5000' }, root: { type: 'string', default: '.' } } })
const root = resolve(values.root)
const { openDatabase, closeDatabase, searchQueueSize, transaction } = await import(`${root}/src-main/store/index.ts`)
const { insertBookmark } = await import(`${root}/src-main/store/queries/bookmark-writes.ts`)
const { createLocalEmbedder } = await import(`${root}/src-main/search/embedder.ts`)
const { startVectorThread } = await import(`${root}/src-main/search/vector-thread.ts`)
const loadBefore = loadavg()[0]
const rssMb = () => Math.round(process.memoryUsage().rss / 1048576)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

const dir = mkdtempSync(join(tmpdir(), 'sheaf-bench-vector-thread-'))
const db = openDatabase({ file: join(dir, 'sheaf.db') })
let n = 0
transaction(db, () => {
  for (const p of iteratePosts(Number(values.posts), 42)) {
    n++
    insertBookmark(db, {
      postId: String(n), text: p.text, authorHandle: p.authorHandle, authorName: p.authorName, postCreatedAt: Date.UTC(2024, 0, 1) + n, source: 'bookmark',
      lang: null, conversationId: null, inReplyToPostId: null, urls: '[]', engagement: '{}', quoted: null, engagementScore: 0, mediaCount: 0,
      rawJson: '{}', contentHash: `h${n}`,
    }, 0)
  }
})
const queued = searchQueueSize(db)
const embedder = createLocalEmbedder()
embedder.embedNow('warm the table on this thread too') // as the server's own thread has
globalThis.gc?.()
await sleep(500)

const before = rssMb()
let peak = before
const sampler = setInterval(() => { peak = Math.max(peak, rssMb()) }, 20)
let ended = false
const t0 = performance.now()
const thread = startVectorThread({
  db, embedder: embedder.onThread!, onWrote: () => {}, onEnded: () => { ended = true }, onFailed: (why: string) => { throw new Error(why) }, idleExitMs: 3000,
})!
thread.kick()
while (searchQueueSize(db) > 0) await sleep(20)
const emptiedMs = Math.round(performance.now() - t0)
await sleep(1000)
const idle = rssMb()
while (!ended) await sleep(50)
await sleep(2000)
clearInterval(sampler)
const after = rssMb()
closeDatabase(db)
rmSync(dir, { recursive: true, force: true })
process.stdout.write(JSON.stringify({
  bench: 'vector-thread-memory', root, posts: n, queued, emptiedMs, rssMb: { before, peak, idleThreadAlive: idle, afterItEnded: after },
  addedMb: { peak: peak - before, idle: idle - before }, loadAverage: { before: loadBefore, after: loadavg()[0] },
}) + '\n')
