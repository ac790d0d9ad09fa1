/**
 * The main thread's CPU per search by the question's shape (plain, sentence, `last year`, `in 2023`,
 * `has:image`, `-word`, quoted phrase, `from:`, two topics), in-process over bench/search-questions.ts's
 * 637 questions at page sizes 10, 15 and 20, on a library with the sentence encoder's vectors (`--db`,
 * opened in place: use a copy). Shows which questions a search's average CPU comes from: the filtered
 * ones check 1,000 neighbours and walk 2,000 word matches. `--root DIR` runs another tree's src-main
 * (a `git archive` of main) for a before/after pair. The encoder's thread and HTTP are not counted.
 * Usage: node bench/search-shapes.ts --db COPY [--root DIR] [--rounds 2] [--shape "last year"]
 */
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { MANY_QUESTIONS } from './search-questions.ts'

const { values } = parseArgs({ options: { db: { type: 'string' }, root: { type: 'string', default: '.' }, rounds: { type: 'string', default: '2' }, shape: { type: 'string' } } })
if (!values.db) throw new Error('--db COPY (a library with the sentence encoder\'s vectors, opened in place)')
const root = resolve(values.root)
const { createSearch } = await import(`${root}/src-main/search/index.ts`)
const { openDatabase } = await import(`${root}/src-main/store/index.ts`)

/** This thread's CPU ms (user + system, /proc ticks of 10 ms). */
const threadCpuMs = () => {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * 10
}
const shapeOf = (q: string): string =>
  q.includes('has:image') ? 'has:image' : q.includes('-benchmarks') ? '-word' : q.startsWith('"') ? 'phrase' : q.includes('from:') ? 'from:'
    : q.includes('last year') ? 'last year' : q.includes(' in 2023') ? 'in 2023' : q.includes(' and ') ? 'two topics' : q.split(' ').length > 2 ? 'sentence' : 'plain'

const db = openDatabase({ file: values.db })
const search = createSearch({ db })
for (;;) {
  const r = await search.search(MANY_QUESTIONS[0], { limit: 10 })
  if (r.semanticModel === 'use-lite-512' && !JSON.stringify(r).includes('still loading')) break
  await new Promise((r) => setTimeout(r, 200))
}
// The word index in memory, where the tree has one (read on its own thread once the library is quiet).
while (search.words?.built === 0) await new Promise((r) => setTimeout(r, 200))
for (const q of MANY_QUESTIONS) await search.search(q, { limit: 10 })

const groups = new Map<string, string[]>()
for (const q of MANY_QUESTIONS) groups.set(shapeOf(q), [...(groups.get(shapeOf(q)) ?? []), q])
const rounds = Number(values.rounds)
const loadBefore = loadavg()
const shapes: Record<string, { questions: number; cpuMsPerSearch: number; msOfTheAverage: number }> = {}
let total = 0
let searches = 0
for (const [shape, qs] of groups) {
  if (values.shape && shape !== values.shape) continue
  const c0 = threadCpuMs()
  for (let r = 0; r < rounds; r++) for (const limit of [10, 15, 20]) for (const q of qs) await search.search(q, { limit })
  const cpu = threadCpuMs() - c0
  total += cpu
  searches += qs.length * 3 * rounds
  const round2 = (x: number) => Math.round(x * 100) / 100
  shapes[shape] = { questions: qs.length, cpuMsPerSearch: round2(cpu / (qs.length * 3 * rounds)), msOfTheAverage: round2(cpu / (MANY_QUESTIONS.length * 3 * rounds)) }
}
process.stdout.write(JSON.stringify({
  bench: 'search-shapes', root, shapes, cpuMsPerSearch: Math.round((total / searches) * 100) / 100,
  loadAverage: { before: loadBefore.map((x) => Math.round(x * 100) / 100), after: loadavg().map((x) => Math.round(x * 100) / 100) },
}, null, 2) + '\n')
process.exit(0)
