/**
 * What reading one model's stored vectors into a vector index costs, in-process: the CPU (this process,
 * which runs nothing else meanwhile), the wall time and the RSS the index adds, for `--model`
 * (`sheaf-search-wv100`, search's word vectors, or `use-lite-512`, the sentence encoder's) of `--db`, a
 * copy (it is opened, and migrated if need be, in place). Each round reads them all into a new index,
 * a slice a turn as a server does (SemanticIndex.current). Use a tree's src-main with `--root`.
 * Usage: node bench/vector-load-cpu.ts --db COPY [--model sheaf-search-wv100] [--rounds 3] [--root DIR]
 */
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: {
  db: { type: 'string' }, model: { type: 'string', default: 'sheaf-search-wv100' }, rounds: { type: 'string', default: '3' }, root: { type: 'string', default: '.' },
} })
if (!values.db) throw new Error('usage: node bench/vector-load-cpu.ts --db COPY [--model sheaf-search-wv100] [--rounds 3] [--root DIR]')
const root = resolve(values.root)
const { openDatabase, closeDatabase } = await import(`${root}/src-main/store/index.ts`)
const { createSemanticIndex } = await import(`${root}/src-main/search/semantic.ts`)
const { createEncoderEmbedder, createLocalEmbedder } = await import(`${root}/src-main/search/embedder.ts`)
const loadBefore = loadavg()[0]
const db = openDatabase({ file: values.db })
const embedder = values.model === 'use-lite-512' ? createEncoderEmbedder() : createLocalEmbedder()
if (embedder.model !== values.model) throw new Error(`--model takes sheaf-search-wv100 or use-lite-512 (got ${values.model})`)
const rssMb = () => Math.round(process.memoryUsage().rss / 1048576)

const rounds: Array<{ cpuMs: number; wallMs: number; rows: number; rssAddedMb: number }> = []
for (let i = 0; i < Number(values.rounds); i++) {
  globalThis.gc?.()
  const rss0 = rssMb()
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const index = createSemanticIndex({ db, embedder, ownsQueue: false })
  await index.current()
  const cpu = process.cpuUsage(cpu0)
  rounds.push({ cpuMs: Math.round((cpu.user + cpu.system) / 1000), wallMs: Math.round(performance.now() - t0), rows: index.size, rssAddedMb: rssMb() - rss0 })
}
closeDatabase(db)
process.stdout.write(JSON.stringify({ bench: 'vector-load-cpu', root, model: values.model, rounds, loadAverage: { before: loadBefore, after: loadavg()[0] } }) + '\n')
