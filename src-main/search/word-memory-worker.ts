import { parentPort, workerData } from 'node:worker_threads'
import { attachDatabase, detachDatabase, readWordIndex } from '../store/thread/index.ts'
import { packWordIndex, wordArrayBuffers } from './word-memory.ts'
import type { FromWordThread } from './word-memory-keeper.ts'

// The in-memory word index's build (see word-memory-keeper.ts): reads FTS5's tokens on a connection of
// its own at the background workers' nice, hands the arrays over (transferred, not copied) and ends.

const { file, stop } = workerData as { file: string; stop: SharedArrayBuffer }
const stopFlag = new Int32Array(stop)
const db = attachDatabase(file)
let reply: FromWordThread
let buffers: ArrayBuffer[] = []
try {
  const arrays = readWordIndex(db, packWordIndex, () => Atomics.load(stopFlag, 0) === 1)
  buffers = wordArrayBuffers(arrays)
  reply = { arrays }
} catch (e) {
  reply = { failed: e instanceof Error ? e.message : String(e) }
} finally {
  detachDatabase(db)
}
parentPort!.postMessage(reply, buffers)
