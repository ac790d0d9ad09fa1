/**
 * CPU per `FlatIndex.search` of a tree's src-main (`--root`, a `git archive` of main, say) on a library's stored
 * vectors (`--db`, use-lite-512, opened read-only): k 200 (a plain question), k 1,000 (a filtered one: 8,000 rows
 * rescored) and k 200 within 40 allowed posts, over 300 questions mixed from stored vectors. Prints a hash of the
 * answers (the same for two trees: the same rows, scores and order) and ms per query for each round.
 * In-process and single-threaded; run the trees in turn, under the bench lock for figures you keep.
 * Usage: node bench/vector-index-cpu.ts --db COPY [--root DIR] [--rounds 3]
 */
import { createHash } from 'node:crypto'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'

const { values } = parseArgs({ options: { db: { type: 'string' }, root: { type: 'string', default: '.' }, rounds: { type: 'string', default: '3' } } })
if (!values.db) throw new Error('usage: node bench/vector-index-cpu.ts --db COPY [--root DIR] [--rounds 3]')
const root = resolve(values.root)
const { createFlatIndex } = await import(`${root}/src-main/vectors/index.ts`)
const loadBefore = loadavg()[0]
const db = new Database(values.db, { readonly: true, fileMustExist: true })
const stored = db.prepare("SELECT bookmark_id AS id, dim, vector FROM embeddings WHERE model = 'use-lite-512' AND encoding = 'f32' ORDER BY bookmark_id")
  .all() as Array<{ id: number; dim: number; vector: Buffer }>
db.close()
if (stored.length === 0) throw new Error(`no use-lite-512 vectors in ${values.db}`)
const dim = stored[0].dim
const vec = (r: { vector: Buffer }) => new Float32Array(new Uint8Array(r.vector).buffer, 0, dim)
const index = createFlatIndex({ dim, initialCapacity: stored.length })
for (const r of stored) index.upsert(r.id, vec(r))
// Questions: two stored vectors mixed (deterministic), so neighbours are near but not the posts themselves.
const questions = Array.from({ length: 300 }, (_, i) => {
  const a = vec(stored[(i * 7919) % stored.length])
  const b = vec(stored[(i * 104729 + 13) % stored.length])
  return a.map((x, d) => x + 0.7 * b[d] + 0.01 * Math.sin(i + d))
})
const allowed = new Set(stored.filter((_, i) => i % 2500 === 7).map((r) => r.id))
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
for (const [label, k, only] of [['k 200', 200, undefined], ['k 1000', 1000, undefined], [`k 200 within ${allowed.size}`, 200, allowed]] as const) {
  const hash = createHash('sha1')
  for (const q of questions) hash.update(JSON.stringify(index.search(q, k, only)))
  const ms: string[] = []
  for (let r = 0; r < Number(values.rounds); r++) {
    const t = cpuMs()
    for (const q of questions) index.search(q, k, only)
    ms.push(((cpuMs() - t) / questions.length).toFixed(3))
  }
  console.log(`${label.padEnd(16)} answers ${hash.digest('hex').slice(0, 12)}  ms per query ${ms.join(' ')}`)
}
console.log(`${stored.length} vectors, ${root}; load average ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}`)
