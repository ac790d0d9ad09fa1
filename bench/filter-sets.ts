/**
 * What a broad filter's posts kept in memory cost and save (search/filter-sets.ts), in-process on a
 * library (`--db`, opened in place: use a copy): for each broad filter of bench/search-questions.ts
 * (`last year`, `in 2023`, `has:image`, `-benchmarks`), how many posts pass, the set's bytes, the build
 * (one SQL read of the filter's posts; the median of `--rounds`), and the word half's walk for a few
 * topics with the filter joined in SQL against tested in memory (ms a call, and whether they answer alike).
 * Usage: node bench/filter-sets.ts --db COPY [--root DIR] [--rounds 5]
 */
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { db: { type: 'string' }, root: { type: 'string', default: '.' }, rounds: { type: 'string', default: '5' } } })
if (!values.db) throw new Error('--db COPY (a library, opened in place)')
const root = resolve(values.root)
const { openDatabase, searchFilteredIds, searchLexical } = await import(`${root}/src-main/store/index.ts`)
const { createQueryUnderstanding } = await import(`${root}/src-main/search/query-understanding.ts`)
const { postSetOf } = await import(`${root}/src-main/search/filter-sets.ts`)

const db = openDatabase({ file: values.db })
const understand = createQueryUnderstanding({ db, clock: Date.now })
const rounds = Number(values.rounds)
const TOPICS = ['postgres', 'python', 'react', 'kubernetes', 'docker', 'telescopes']
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const round3 = (x: number) => Math.round(x * 1000) / 1000
const loadBefore = loadavg()

const filters: Record<string, unknown> = {}
for (const shape of ['last year', 'in 2023', 'has:image', '-benchmarks']) {
  const filter = understand(`x ${shape}`).filter
  const builds: number[] = []
  let set = postSetOf([])
  for (let r = 0; r < rounds; r++) {
    const t = performance.now()
    set = postSetOf(searchFilteredIds(db, filter))
    builds.push(performance.now() - t)
  }
  let sql = 0
  let memory = 0
  let alike = 0
  for (const topic of TOPICS) {
    const match = `"${topic}"`
    const a = searchLexical(db, match, filter, 200, 500)
    const b = searchLexical(db, match, filter, 200, 500, set)
    if (JSON.stringify(a) === JSON.stringify(b)) alike++
    for (let r = 0; r < rounds; r++) {
      let t = performance.now()
      searchLexical(db, match, filter, 200, 500)
      sql += performance.now() - t
      t = performance.now()
      searchLexical(db, match, filter, 200, 500, set)
      memory += performance.now() - t
    }
  }
  const calls = TOPICS.length * rounds
  filters[shape] = {
    posts: set.size, bytes: set.bytes, buildMs: round3(median(builds)),
    wordHalfMs: { sql: round3(sql / calls), memory: round3(memory / calls), answersAlike: `${alike} of ${TOPICS.length}` },
  }
}
process.stdout.write(JSON.stringify({
  bench: 'filter-sets', root, filters,
  loadAverage: { before: loadBefore.map((x) => Math.round(x * 100) / 100), after: loadavg().map((x) => Math.round(x * 100) / 100) },
}, null, 2) + '\n')
