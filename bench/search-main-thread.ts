/**
 * The main thread's CPU per search, in-process, over bench/search-questions.ts's 637 questions at page
 * sizes 10, 15 and 20 (`--rounds` times), on a library with the sentence encoder's vectors (`--db`,
 * opened in place: use a copy). Waits until search by meaning answers with the encoder's vectors, asks
 * every question once to warm up, then measures. The encoder's thread (each question encoded again:
 * 637 are more than search keeps vectors for) is not counted; HTTP is not in it.
 * `--root DIR` runs another tree's src-main (a `git archive` of main, say), for a before/after pair.
 * `--profile FILE` writes a CPU profile of the measured searches, read with
 * `node bench/search-profile.ts --read FILE --searches N`.
 * Usage: node bench/search-main-thread.ts --db COPY [--root DIR] [--rounds 1] [--profile FILE.cpuprofile]
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { db: { type: 'string' }, root: { type: 'string', default: '.' }, rounds: { type: 'string', default: '1' }, profile: { type: 'string' } } })
if (!values.db) throw new Error('--db COPY (a library with the sentence encoder\'s vectors, opened in place)')
const root = resolve(values.root)
const { createSearch } = await import(`${root}/src-main/search/index.ts`)
const { closeDatabase, openDatabase } = await import(`${root}/src-main/store/index.ts`)
const { MANY_QUESTIONS } = await import(`${root}/bench/search-questions.ts`) as { MANY_QUESTIONS: string[] }

/** This thread's CPU ms (user + system, /proc ticks of 10 ms). */
const threadCpuMs = () => {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * 10
}
const load = () => loadavg().map((x) => Math.round(x * 100) / 100)

const db = openDatabase({ file: values.db })
const search = createSearch({ db })
const t0 = performance.now()
for (;;) {
  const r = await search.search(MANY_QUESTIONS[0], { limit: 10 })
  if (r.semanticModel === 'use-lite-512' && !JSON.stringify(r).includes('still loading')) break
  if (performance.now() - t0 > 180_000) throw new Error('search by meaning did not settle on the sentence encoder')
  await new Promise((r) => setTimeout(r, 200))
}
// The word index in memory, where the tree has one (read on its own thread once the library is quiet).
while (search.words?.built === 0) await new Promise((r) => setTimeout(r, 200))
for (const q of MANY_QUESTIONS) await search.search(q, { limit: 10 })

const session = new Session()
if (values.profile) {
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 100 })
  await session.post('Profiler.start')
}
const loadBefore = load()
const c0 = threadCpuMs()
const w0 = performance.now()
let searches = 0
for (let r = 0; r < Number(values.rounds); r++) {
  for (const limit of [10, 15, 20]) {
    for (const q of MANY_QUESTIONS) {
      await search.search(q, { limit })
      searches++
    }
  }
}
const cpu = threadCpuMs() - c0
const wall = performance.now() - w0
if (values.profile) writeFileSync(values.profile, JSON.stringify((await session.post('Profiler.stop')).profile))
process.stdout.write(JSON.stringify({
  bench: 'search-main-thread', root, searches, mainThreadCpuMsPerSearch: Math.round((cpu / searches) * 100) / 100,
  wallMsPerSearch: Math.round((wall / searches) * 100) / 100, profiled: Boolean(values.profile), loadAverage: { before: loadBefore, after: load() },
}, null, 2) + '\n')
await search.close()
closeDatabase(db)
process.exit(0)
