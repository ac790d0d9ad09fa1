/**
 * The word index read into memory (src-main/search/word-memory.ts) on a library (`--db`, read only: its
 * copy is never written): the build as the app runs it (a worker thread at the background nice, its own
 * connection), its wall time, the process's CPU (the worker's, mostly), the peak RSS (VmHWM) and the RSS
 * kept once the arrays are adopted, the arrays' bytes by part; then the word half's statements against
 * memory, CPU ms a call over `--rounds` calls: FTS5's searchLexical (newest 500 scored by bm25()) and
 * searchMatchCount, and the same answers from memory (asserted equal, ids and scores); then filtered questions as
 * search asks them (a minus word, `has:image` with its posts in memory, both, a one-word quoted phrase) and
 * searchMatchingAmong over 2,000 posts, and the speller's vocabulary, FTS5 against memory, asserted equal.
 * Run with --expose-gc: RSS is taken after a GC and a second's settle, before and 4 s after the build;
 * the peak is the high-water mark from the build's start (/proc/self/clear_refs).
 * Usage: node --expose-gc bench/word-memory.ts --db FILE [--rounds 40]
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { postSetOf } from '../src-main/search/filter-sets.ts'
import { buildOnThread } from '../src-main/search/word-memory-keeper.ts'
import { openWordIndex, wordArrayBuffers, type WordWalk } from '../src-main/search/word-memory.ts'
import {
  FILTER_WALK, openWordTokenizer, searchFilteredIds, searchLexical, searchMatchCount, searchMatchingAmong, searchVocabulary, type SearchFilter,
} from '../src-main/store/index.ts'
import { attachDatabase, detachDatabase } from '../src-main/store/thread/index.ts'

const { values } = parseArgs({ options: { db: { type: 'string' }, rounds: { type: 'string', default: '40' } } })
if (!values.db) throw new Error('--db FILE')
const load = () => loadavg().map((x) => Math.round(x * 100) / 100)
const loadBefore = load()
const statusMb = (key: string) => Number(/\d+/.exec(readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(key))!)![0]) / 1024
const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d

const settle = async (ms: number) => {
  await new Promise((r) => setTimeout(r, ms))
  global.gc?.()
}
await settle(1000)
const rssBefore = statusMb('VmRSS:')
writeFileSync('/proc/self/clear_refs', '5')
const c0 = cpuMs()
const t0 = performance.now()
const arrays = await buildOnThread(values.db).arrays
const buildMs = performance.now() - t0
const buildCpuMs = cpuMs() - c0
const index = openWordIndex(arrays)
const rssAdopted = statusMb('VmRSS:')
await settle(3000)
await settle(1000)
const build = {
  wallMs: Math.round(buildMs), processCpuMs: Math.round(buildCpuMs), rssBeforeMb: round(rssBefore, 1), peakRssMb: round(statusMb('VmHWM:'), 1),
  rssAdoptedMb: round(rssAdopted, 1), rssAfter4sMb: round(statusMb('VmRSS:'), 1), keptMb: round(statusMb('VmRSS:') - rssBefore, 1), bytes: index.bytes, terms: arrays.docCounts.length, posts: arrays.rowids.length,
  postings: arrays.docCounts.reduce((s, n) => s + n, 0), profiles: arrays.profiles.length / arrays.weights.length,
  bytesByPart: Object.fromEntries(Object.entries(arrays).filter(([, v]) => ArrayBuffer.isView(v)).map(([k, v]) => [k, (v as Uint8Array).byteLength])),
}
if (wordArrayBuffers(arrays).some((b) => b.byteLength === 0 && index.bytes === 0)) throw new Error('nothing built')

// The statements, each call's CPU (this thread), on the same library.
const db = attachDatabase(values.db)
const tokenizer = openWordTokenizer(db)
const rounds = Number(values.rounds)
const words = ['"faster"', '"sqlite"', '"typography"', '"context" OR "window"', '"vector"* OR "embedding"*', '"postgres" OR "latency" OR "benchmarks"']
/** Each expression's token, as FTS5's tokenizer gives it (the app remembers them: a question asked again is not tokenized again). */
const specsOf = (match: string) => match.split(' OR ').map((e) => {
  const m = /^"(.*)"(\*?)$/.exec(e)!
  return { token: tokenizer.tokens(m[1])[0], prefix: m[2] === '*' }
})
const phrasesOf = (specs: Array<{ token: string; prefix: boolean }>) => specs.map((s) => index.phrase(s.token, s.prefix))
const time = (fn: () => unknown) => {
  fn()
  const c = cpuMs()
  for (let i = 0; i < rounds; i++) fn()
  return round((cpuMs() - c) / rounds, 3)
}
const statements = words.map((match) => {
  const specs = specsOf(match)
  const want = searchLexical(db, match, {}, 200, 500)
  const got = index.best(phrasesOf(specs), 200, 500)
  const same = want.length === got.length && want.every((w, i) => w.id === got[i].id && w.score === got[i].score)
  if (!same) throw new Error(`memory and FTS5 differ for ${match}`)
  return {
    match, matches: searchMatchCount(db, match, 1e9),
    fts5: { lexicalMs: time(() => searchLexical(db, match, {}, 200, 500)), countsMs: time(() => match.split(' OR ').forEach((e) => searchMatchCount(db, e, 2001))) },
    memory: { lexicalMs: time(() => index.best(phrasesOf(specs), 200, 500)), countsMs: time(() => phrasesOf(specs).map((p) => Math.min(p.docs, 2001))),
      tokenizeMs: time(() => specsOf(match)) },
  }
})

// Filtered: searchLexical's walk with the filter's posts (`has:image`, kept in memory as filter-sets.ts keeps them),
// minus words as NOT, a one-word phrase as a post test; memory walks the same matches (word-memory-keeper.ts's rules).
const image = postSetOf(searchFilteredIds(db, { has: ['image'] }))
const FILTERED: Array<{ name: string; filter: SearchFilter; passing?: typeof image }> = [
  { name: '-benchmarks', filter: { mustNotMatch: ['"benchmarks"'] } },
  { name: 'has:image (in memory)', filter: { has: ['image'] }, passing: image },
  { name: 'has:image -benchmarks (in memory)', filter: { has: ['image'], mustNotMatch: ['"benchmarks"'] }, passing: image },
  { name: '"sqlite"', filter: { mustMatch: ['"sqlite"'] } },
]
const walkOf = (f: SearchFilter, passing?: typeof image): WordWalk => {
  const not = phrasesOf((f.mustNotMatch ?? []).flatMap(specsOf))
  const must = phrasesOf((f.mustMatch ?? []).flatMap(specsOf))
  const filtered = passing || must.length > 0
  return { not, must: passing ? [] : must, passing, walk: filtered ? FILTER_WALK * 500 : 500 }
}
const filtered = FILTERED.flatMap(({ name, filter, passing }) => ['"faster"', '"context" OR "window"', '"postgres" OR "latency" OR "benchmarks"'].map((match) => {
  const specs = specsOf(match)
  const want = searchLexical(db, match, filter, 200, 500, passing)
  const got = index.best(phrasesOf(specs), 200, 500, walkOf(filter, passing))
  if (JSON.stringify(want) !== JSON.stringify(got)) throw new Error(`memory and FTS5 differ for ${match} ${name}`)
  return {
    match, filter: name, found: want.length,
    fts5Ms: time(() => searchLexical(db, match, filter, 200, 500, passing)),
    memoryMs: time(() => index.best(phrasesOf(specs), 200, 500, walkOf(filter, passing))),
  }
}))
const some = searchFilteredIds(db, { has: ['image'] }, 2000)
const among = ['"faster"', '"sqlite"', '"postgres" OR "latency" OR "benchmarks"'].map((match) => {
  const specs = specsOf(match)
  const want = searchMatchingAmong(db, match, some)
  if (JSON.stringify(want) !== JSON.stringify(index.among(phrasesOf(specs), some))) throw new Error(`memory and FTS5 differ among posts for ${match}`)
  return { match, ids: some.length, holding: want.length, fts5Ms: time(() => searchMatchingAmong(db, match, some)), memoryMs: time(() => index.among(phrasesOf(specs), some)) }
})
// The speller's vocabulary (every term and its post count): FTS5's fts5vocab table against the copy's arrays, asserted equal.
const vocabRounds = 5
const timeFew = (fn: () => unknown) => {
  const c = cpuMs()
  for (let i = 0; i < vocabRounds; i++) fn()
  return round((cpuMs() - c) / vocabRounds, 1)
}
if (JSON.stringify(searchVocabulary(db)) !== JSON.stringify(index.vocabulary())) throw new Error('memory and FTS5 differ for the vocabulary')
const vocabulary = { terms: index.vocabulary().length, rounds: vocabRounds, fts5Ms: timeFew(() => searchVocabulary(db)), memoryMs: timeFew(() => index.vocabulary()) }
tokenizer.close()
detachDatabase(db)
process.stdout.write(JSON.stringify({ bench: 'word-memory', library: values.db, build, rounds, statements, filtered, among, vocabulary, loadAverage: { before: loadBefore, after: load() } }, null, 2) + '\n')
