import { parentPort } from 'node:worker_threads'
import { bitsAllowed, createScanner, type AllowedIds, type Scanner } from './scan.ts'
import type { FromScanThread, ToScanThread } from './scan-thread.ts'

// The scan thread (scan-thread.ts): each message one scan of one index, answered in order, hits as two
// transferred arrays. It keeps a scanner per index (its kernel in the space's scan slot, its reach and
// scratch arrays) and the kept filters' posts by key, so their reach carries over as it does inline.

/** Kept filters remembered (filter-sets.ts keeps 8 per library). */
const KEEP = 16
const scanners = new Map<number, Scanner>()
const kept = new Map<number, AllowedIds>()

const scannerOf = (ask: ToScanThread): Scanner => {
  let s = scanners.get(ask.index)
  if (ask.memory) {
    if (s) s.adopt(ask.memory)
    else scanners.set(ask.index, (s = createScanner(ask.memory, { codesFrom: ask.codesFrom, scan: true })))
  }
  if (!s) throw new Error(`scan thread: index ${ask.index} was never sent`)
  return s
}

const allowedOf = (a: ToScanThread['allowed']): AllowedIds | undefined => {
  if (!a) return undefined
  if (a.key === 0) return bitsAllowed(a.bits, a.size)
  let set = kept.get(a.key)
  if (set) kept.delete(a.key)
  else set = bitsAllowed(a.bits, a.size)
  kept.set(a.key, set)
  if (kept.size > KEEP) kept.delete(kept.keys().next().value!)
  return set
}

parentPort!.on('message', (ask: ToScanThread) => {
  let reply: FromScanThread
  try {
    const hits = scannerOf(ask).scan(ask.query, ask.k, ask.size, allowedOf(ask.allowed))
    const ids = new Int32Array(hits.length)
    const scores = new Float32Array(hits.length)
    for (let i = 0; i < hits.length; i++) {
      ids[i] = hits[i].id
      scores[i] = hits[i].score
    }
    reply = { ids, scores }
    parentPort!.postMessage(reply, [ids.buffer, scores.buffer])
  } catch (e) {
    reply = { failed: e instanceof Error ? e.message : String(e) }
    parentPort!.postMessage(reply)
  }
})
