/**
 * The related-post index over search's rows (lent) against its own copy, in one thread, on a copy of an
 * analysed library: build time, the time of `--every`th post's related posts (k = 5, as stage 4 asks),
 * whether both give the same answers for them, and the memory each holds itself.
 *   flock /work/bench.lock node bench/related-index.ts --db DIR/sheaf.db [--every 5]
 */
import { rmSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { loadRelatedInput } from '../src-main/pipeline/stages/categorization.ts'
import { createEncoderEmbedder } from '../src-main/search/embedder.ts'
import { createSemanticIndex } from '../src-main/search/semantic.ts'
import { closeDatabase, openDatabase } from '../src-main/store/index.ts'
import { buildClusteredIndex, clusteredIndexBytes, type ClusteredIndex } from '../src-main/vectors/index.ts'
import { benchDataDir } from './child-server.ts'

const { values } = parseArgs({ options: { db: { type: 'string' }, every: { type: 'string', default: '5' } } })
if (!values.db) throw new Error('--db FILE (a library analysed by the pipeline)')
const dataDir = await benchDataDir('related-index', undefined, values.db)
const db = openDatabase({ file: `${dataDir}/sheaf.db` })
const load0 = loadavg()[0]

const search = createSemanticIndex({ db, embedder: createEncoderEmbedder(), ownsQueue: false })
const t = performance.now()
const flat = await search.current()
const searchLoadMs = performance.now() - t
const borrowed = await loadRelatedInput({ db, vectors: async () => flat })
const alone = await loadRelatedInput({ db })
const built = (input: typeof alone.input) => {
  const t0 = performance.now()
  return { index: buildClusteredIndex(input), ms: performance.now() - t0 }
}
const own = built(alone.input)
const lent = built(borrowed.input)
const ids = Array.from(alone.input.ids).filter((_, i) => i % Number(values.every) === 0)
const timed = (index: ClusteredIndex) => {
  const t0 = performance.now()
  const answers = ids.map((id) => index.query(id, 5))
  return { answers, ms: performance.now() - t0 }
}
// Twice each, alternated: the first pass warms the code and the caches.
timed(own.index)
timed(lent.index)
const a = timed(own.index)
const b = timed(lent.index)
const differing = ids.filter((_, i) => JSON.stringify(a.answers[i]) !== JSON.stringify(b.answers[i])).length
borrowed.loan?.giveBack()
closeDatabase(db)
rmSync(dirname(`${dataDir}/sheaf.db`), { recursive: true, force: true })
const mb = (b: number) => Math.round(b / 1e5) / 10
process.stdout.write(JSON.stringify({
  bench: 'related-index', posts: alone.input.ids.length, queried: ids.length, searchLoadMs: Math.round(searchLoadMs),
  own: { buildMs: Math.round(own.ms), queryUs: Math.round((a.ms / ids.length) * 1000), heldMb: mb(clusteredIndexBytes(own.index.shared)) },
  lent: { buildMs: Math.round(lent.ms), queryUs: Math.round((b.ms / ids.length) * 1000), heldMb: mb(clusteredIndexBytes(lent.index.shared)) },
  differing, loadAverage1m: { start: load0, end: loadavg()[0] },
}, null, 2) + '\n')
