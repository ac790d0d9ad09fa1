/**
 * What the scan thread (src-main/vectors/scan-thread.ts) saves the thread that asks, and what it costs
 * the process: CPU per search of the calling thread and of the whole process, for the same questions
 * scanned inline (`FlatIndex.search`), on the thread one at a time (`searchFar`, awaited in turn) and on
 * the thread 16 in flight (as the served bench's 16 clients), at k 200 (a plain question) and k 1,000 (the
 * wide filtered one) and k 200 within a fifth of the posts (a Set, and a kept filter's bitmap), on a library's stored vectors (`--db`, use-lite-512, opened read-only). Checks
 * that each round's hits equal the inline ones. In-process; run under the bench lock for figures you keep.
 * Usage: node bench/scan-thread.ts --db COPY [--rows N] [--questions 1000]
 */
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { postSetOf } from '../src-main/search/filter-sets.ts'
import { createFlatIndex, createScanThread, type AllowedIds, type FlatIndex } from '../src-main/vectors/index.ts'
import { cpuMs } from './child-server.ts'

const { values } = parseArgs({ options: { db: { type: 'string' }, rows: { type: 'string' }, questions: { type: 'string', default: '1000' } } })
if (!values.db) throw new Error('usage: node bench/scan-thread.ts --db COPY [--rows N] [--questions 1000]')
const loadBefore = loadavg()[0]
const db = new Database(values.db, { readonly: true, fileMustExist: true })
const limit = values.rows ? ` LIMIT ${Number(values.rows)}` : ''
const stored = db.prepare(`SELECT bookmark_id AS id, dim, vector FROM embeddings WHERE model = 'use-lite-512' AND encoding = 'f32' ORDER BY bookmark_id${limit}`)
  .all() as Array<{ id: number; dim: number; vector: Buffer }>
db.close()
if (stored.length === 0) throw new Error(`no use-lite-512 vectors in ${values.db}`)
const dim = stored[0].dim
const vec = (r: { vector: Buffer }) => new Float32Array(new Uint8Array(r.vector).buffer, 0, dim)
const thread = createScanThread()
const index: FlatIndex = createFlatIndex({ dim, initialCapacity: stored.length, thread })
for (const r of stored) index.upsert(r.id, vec(r))
const n = Number(values.questions)
// Questions: two stored vectors mixed (deterministic), so neighbours are near but not the posts themselves.
const questions = Array.from({ length: n }, (_, i) => {
  const a = vec(stored[(i * 7919) % stored.length])
  const b = vec(stored[(i * 104729 + 13) % stored.length])
  return a.map((x, d) => x + 0.7 * b[d] + 0.01 * Math.sin(i + d))
})
const processMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

// A broad filter's posts (a fifth of the library), as a Set (the fallback's) and as a kept set's shared bitmap.
const fifth = stored.filter((_, i) => i % 5 === 2).map((r) => r.id)
const allowedBy: Record<string, AllowedIds | undefined> = { '': undefined, ', a fifth as a Set': new Set(fifth), ', a fifth kept': postSetOf(fifth) }
let allowed: AllowedIds | undefined

type Round = (k: number) => Promise<Array<Array<{ id: number; score: number }>>>
const rounds: Array<[string, Round]> = [
  ['inline', async (k) => questions.map((q) => index.search(q, k, allowed))],
  ['thread, one at a time', async (k) => {
    const out = []
    for (const q of questions) out.push(await index.searchFar(q, k, allowed))
    return out
  }],
  ['thread, 16 in flight', async (k) => {
    const out: Array<Array<{ id: number; score: number }>> = new Array(questions.length)
    let next = 0
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < questions.length) {
        const i = next++
        out[i] = await index.searchFar(questions[i], k, allowed)
      }
    }))
    return out
  }],
]
const result: Record<string, unknown> = { rows: index.size, questions: n, simd: index.simd }
for (const [k, only] of [[200, ''], [1000, ''], [200, ', a fifth as a Set'], [200, ', a fifth kept']] as const) {
  allowed = allowedBy[only]
  let reference: unknown = null
  for (const [label, run] of rounds) {
    await run(k) // warm (and the thread's first scan sends the memory)
    const t0 = cpuMs(process.pid, process.pid)
    const p0 = processMs()
    const w0 = performance.now()
    const hits = await run(k)
    const wall = performance.now() - w0
    const calling = cpuMs(process.pid, process.pid) - t0
    const proc = processMs() - p0
    reference ??= hits
    const r = (x: number) => Math.round((x / n) * 1000) / 1000
    result[`k ${k}${only}, ${label}`] = { callingThreadMs: r(calling), processMs: r(proc), wallMs: r(wall), sameHits: same(hits, reference) }
  }
}
result.threadScans = thread.scanned
result.loadAverage = { before: loadBefore, after: loadavg()[0] }
await thread.close()
console.log(JSON.stringify(result, null, 2))
