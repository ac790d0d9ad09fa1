import { parentPort, workerData } from 'node:worker_threads'
import { attachDatabase, detachDatabase, searchQueuePeek, transaction } from '../store/thread/index.ts'
import type { LocalEmbedderOptions } from './embedder.ts'
import { createLocalEmbedder } from './local-embedder.ts'
import { embedInputs, writeQueuedVectors } from './queued-vectors.ts'
import type { FromVectorThread, ToVectorThread } from './vector-thread.ts'

// The vector thread's entry (see vector-thread.ts): empties search_queue on its own connection, a batch
// per write transaction, the vectors computed before the transaction takes the lock. It imports only
// what it runs (the store's face for threads, the word vectors): each module is compiled again here.

const { file, embedder: options, batch, pauseMs } = workerData as { file: string; embedder: LocalEmbedderOptions; batch: number; pauseMs: number }
const port = parentPort!
const db = attachDatabase(file)
const embedder = createLocalEmbedder(options)
const send = (m: FromVectorThread) => port.postMessage(m)

let running = false
let closing = false

const close = () => {
  detachDatabase(db)
  process.exit(0)
}

async function run(): Promise<void> {
  running = true
  try {
    for (let ids = searchQueuePeek(db, batch); ids.length > 0 && !closing; ids = searchQueuePeek(db, batch)) {
      const ready = embedInputs(db, embedder, ids)
      const { written } = transaction(db, () => writeQueuedVectors(db, embedder, ids, ready))
      send({ type: 'wrote', posts: ids.length, vectors: written.length })
      // The app's own writers (an import, the pipeline) take the lock in the pause.
      await new Promise((r) => setTimeout(r, pauseMs))
    }
    send({ type: 'idle' })
  } catch (e) {
    // The lock held past the busy time-out (an import's transaction stays open across its whole file): the next kick tries again.
    if (String((e as { code?: unknown }).code).startsWith('SQLITE_BUSY')) send({ type: 'idle' })
    else send({ type: 'failed', message: e instanceof Error ? e.message : String(e) })
  } finally {
    running = false
  }
  if (closing) close()
}

port.on('message', (m: ToVectorThread) => {
  if (m === 'close') {
    closing = true
    if (!running) close()
  } else if (!running && !closing) void run()
})
