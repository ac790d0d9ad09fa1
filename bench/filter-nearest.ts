/**
 * The meaning half of each question of bench/search-questions.ts with a broad filter (`last year`, `in 2023`,
 * `has:image`, `-benchmarks`), answered before the filter's posts are kept in memory (candidates.ts checks the
 * nearest 1,000 against the filter in SQL) and with them kept (search/filter-sets.ts): whether the two answer
 * alike (the candidates, and the first 30 of the fused list, which is all a page shows), and what each costs a
 * search in CPU (this thread, and the process with its scan thread), by filter shape. In-process on a library's
 * stored sentence-encoder vectors (`--db`, opened in place: use a copy); `--root` picks the tree whose code runs.
 * Usage: node bench/filter-nearest.ts --db COPY [--root DIR] [--rounds 3]
 */
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { cpuMs } from './child-server.ts'

const { values } = parseArgs({ options: { db: { type: 'string' }, root: { type: 'string', default: '.' }, rounds: { type: 'string', default: '3' } } })
if (!values.db) throw new Error('--db COPY (a library, opened in place)')
const root = resolve(values.root)
const { fuse, lexicalCandidates, narrowPosts, semanticCandidates, blankVectorOf } = await import(`${root}/src-main/search/candidates.ts`)
const { postSetOf } = await import(`${root}/src-main/search/filter-sets.ts`)
const { createEncoderEmbedder } = await import(`${root}/src-main/search/embedder.ts`)
const { createSemanticIndex } = await import(`${root}/src-main/search/semantic.ts`)
const { createQueryUnderstanding } = await import(`${root}/src-main/search/query-understanding.ts`)
const { createWordMemory } = await import(`${root}/src-main/search/word-memory-keeper.ts`)
const { createScanThread } = await import(`${root}/src-main/vectors/index.ts`)
const { closeDatabase, hasSearchFilter, openDatabase, searchFilteredIds } = await import(`${root}/src-main/store/index.ts`)
const { MANY_QUESTIONS } = await import(`${root}/bench/search-questions.ts`) as { MANY_QUESTIONS: string[] }

type Hit = { id: number }
const loadBefore = loadavg()
const db = openDatabase({ file: values.db })
const scans = createScanThread()
const index = createSemanticIndex({ db, embedder: createEncoderEmbedder(), ownsQueue: false, scans })
index.preload()
while (index.loading) await new Promise((r) => setTimeout(r, 100))
const words = createWordMemory({ db, quietMs: 10, endedMs: 10 })
words.writesEnded()
while (!words.current()) await new Promise((r) => setTimeout(r, 100))
const inMemory = words.current()
const understand = createQueryUnderstanding({ db, clock: Date.now })
const blank = blankVectorOf()
const rounds = Number(values.rounds)
const ids = (l: readonly Hit[]) => l.map((c) => c.id).join(' ')
const shapeOf = (text: string) => ['last year', 'in 2023', 'has:image', '-benchmarks'].find((s) => text.includes(s)) ?? 'other'
const processMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

type Shape = { questions: number; nearestAlike: number; first30Alike: number; cold: { thread: number; process: number }; kept: { thread: number; process: number } }
const shapes: Record<string, Shape> = {}
const differ: string[] = []
for (const text of MANY_QUESTIONS) {
  const q = understand(text, inMemory)
  if (!q.hasText || q.matchers.length === 0 || !hasSearchFilter(q.filter) || narrowPosts(db, q.filter)) continue
  const s = (shapes[shapeOf(text)] ??= { questions: 0, nearestAlike: 0, first30Alike: 0, cold: { thread: 0, process: 0 }, kept: { thread: 0, process: 0 } })
  const set = postSetOf(searchFilteredIds(db, q.filter))
  const qv = await index.embedQuery(q.semanticText)
  const nearest = (broad: typeof set | null): Promise<Hit[]> => semanticCandidates(db, index, qv, q, null, () => blank(index), broad)
  const cold = await nearest(null)
  const kept = await nearest(set)
  const lexical = lexicalCandidates(db, q, null, false, { words: inMemory, broad: set })
  s.questions++
  if (ids(cold) === ids(kept)) s.nearestAlike++
  else differ.push(text)
  if (ids(fuse(lexical, cold).slice(0, 30)) === ids(fuse(lexical, kept).slice(0, 30))) s.first30Alike++
  for (const [broad, into] of [[null, s.cold], [set, s.kept]] as const) {
    const t = cpuMs(process.pid, process.pid)
    const p = processMs()
    for (let r = 0; r < rounds; r++) await nearest(broad)
    into.thread += cpuMs(process.pid, process.pid) - t
    into.process += processMs() - p
  }
}
const perSearch = (ms: number, s: Shape) => Math.round((ms / (s.questions * rounds)) * 1000) / 1000
const filters = Object.fromEntries(Object.entries(shapes).map(([shape, s]) => [shape, {
  questions: s.questions, nearestAlike: s.nearestAlike, first30Alike: s.first30Alike,
  cpuMsASearch: {
    beforeKept: { thread: perSearch(s.cold.thread, s), process: perSearch(s.cold.process, s) },
    kept: { thread: perSearch(s.kept.thread, s), process: perSearch(s.kept.process, s) },
  },
}]))
process.stdout.write(JSON.stringify({
  bench: 'filter-nearest', root, rounds, filters, nearestDiffer: differ,
  loadAverage: { before: loadBefore.map((x) => Math.round(x * 100) / 100), after: loadavg().map((x) => Math.round(x * 100) / 100) },
}, null, 2) + '\n')
await words.close()
await scans.close()
closeDatabase(db)
process.exit(0)
