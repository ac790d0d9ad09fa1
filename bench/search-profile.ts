/**
 * Where one search's CPU goes at scale: runs a varied set of questions (topics, paraphrases, typos,
 * authors, phrases, filters, dates) in-process against a library built by bench/search-latency.ts
 * (`--db FILE`, reused), under a CPU profile, and prints CPU ms per search with the inclusive time of
 * each stage. Every question is asked once per round with a different page size, so no answer is
 * reused from one ask to the next (the spelling memo and prepared statements are, as in the app).
 * Usage: node bench/search-profile.ts --db /tmp/sheaf-100k.db [--rounds 5] [--encoder] [--profile FILE.cpuprofile]
 *        [--plain]   (no profiler: the CPU per search without its overhead)
 * A server's profile (bench/load.ts with SHEAF_BENCH_CPU_PROF=DIR and `--mix search`) is read instead with
 * `--read FILE.cpuprofile --searches N` (N: the searches it answered); samples before its first search are left out, and with
 * `--last S` those before the profile's last S seconds (bench/search-alone.ts measures its last `--seconds`, settling before them).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { createSearch } from '../src-main/search/index.ts'
import { closeDatabase, openDatabase } from '../src-main/store/index.ts'
import { QUESTIONS as QUERIES } from './search-questions.ts'

const { values } = parseArgs({ options: { db: { type: 'string' }, rounds: { type: 'string', default: '5' }, encoder: { type: 'boolean', default: false }, profile: { type: 'string' },
  read: { type: 'string' }, searches: { type: 'string' }, last: { type: 'string' }, plain: { type: 'boolean', default: false } } })

type Profile = { nodes: Node[]; samples?: number[]; timeDeltas?: number[] }
type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }

/** Each sample goes to the first part whose pattern one of its frames matches (file paths as src-main/...). */
const PARTS: Array<[string, RegExp]> = [
  ['vector scan (int8 kernel, top-k)', /src-main\/vectors\//],
  ['word half: FTS5 match counts, BM25 (lexicalCandidates)', /^lexicalCandidates /],
  ['meaning half: query vector, filters on neighbours (semanticCandidates)', /^(semanticCandidates|queryVector|embedQuery) /],
  ['narrow filters (author, category, phrase)', /^narrowPosts /],
  ['query understanding (parse, spelling, category)', /src-main\/search\/query-understanding\.ts/],
  ['explanation: post columns read (searchDocuments)', /^searchDocuments /],
  ['explanation: evidence, relevance, reasons', /^explainResults /],
  ['hydration of the returned hits (bookmarksForHits)', /^bookmarksForHits /],
  ['index catch-up check (beforeQuery)', /^beforeQuery /],
  ['fusion', /^fuse /],
  ['search, the rest', /src-main\/search\//],
  ["member state of the hits (the route)", /src-main\/member\//],
  ['JSON of the answer', /^(json|stringify|JSON\.stringify) |^stringify/],
  ['HTTP parse, write, Hono', /node:_http|node:net|stream_base|writev|node-server|hono\/dist|node:internal\/streams/],
  ['auth, session, rate limit, middleware', /src-main\/http\//],
  ['garbage collection', /^\(garbage collector\)/],
  ['idle', /^\(idle\)|^\(program\)/],
]

/** The inclusive (counted once per sample) and self time of each function, per search, as text. */
function breakdown(profile: Profile, asked: number, fromFirst?: RegExp, lastSeconds = Infinity): { profiledMsPerSearch: number; text: string } {
  const nodes = new Map<number, Node>(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of nodes.values()) for (const c of n.children ?? []) parent.set(c, n.id)
  const label = (n: Node) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\/(src-main|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`
  const inclusive = new Map<string, number>()
  const self = new Map<string, number>()
  const parts = new Map<string, number>()
  let total = 0
  let started = !fromFirst
  // The window a bench measured: the profile's last `lastSeconds` (search-alone's settling and warm-up come before it).
  let at = profile.timeDeltas!.reduce((s, d) => s + d, 0) / 1e6
  profile.samples!.forEach((id, i) => {
    at -= profile.timeDeltas![i] / 1e6
    if (at >= lastSeconds) return
    const stack: string[] = []
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) stack.push(label(nodes.get(n)!))
    started ||= stack.some((l) => fromFirst!.test(l))
    // The vectors' first load (inside the first search) is once per server, not per search.
    if (!started || stack.some((l) => l.startsWith('searchIterateEmbeddings'))) return
    const dt = profile.timeDeltas![i] / 1000
    total += dt
    self.set(stack[0], (self.get(stack[0]) ?? 0) + dt)
    for (const l of new Set(stack)) inclusive.set(l, (inclusive.get(l) ?? 0) + dt)
    const part = PARTS.find(([, re]) => stack.some((l) => re.test(l)))?.[0] ?? 'other'
    parts.set(part, (parts.get(part) ?? 0) + dt)
  })
  const per = (ms: number) => Math.round((ms / asked) * 1000) / 1000
  const top = (m: Map<string, number>, k: number) => [...m].filter(([l]) => !/^\(root\)/.test(l)).sort((a, b) => b[1] - a[1]).slice(0, k)
    .map(([l, ms]) => `${per(ms).toFixed(3).padStart(7)} ms  ${l}`)
  return { profiledMsPerSearch: per(total), text: `parts, per search:\n${top(parts, 30).join('\n')}\n\ninclusive, per search:\n${top(inclusive, Number(process.env.TOPN ?? 70)).join('\n')}\n\nself, per search:\n${top(self, 30).join('\n')}` }
}

if (values.read) {
  const b = breakdown(JSON.parse(readFileSync(values.read, 'utf8')) as Profile, Number(values.searches), /search-service\.ts/, Number(values.last ?? Infinity))
  console.log(`profiled ms per search (from the first search on): ${b.profiledMsPerSearch}\n\n${b.text}`)
  process.exit(0)
}
if (!values.db) throw new Error('--db FILE (a library built by bench/search-latency.ts --db FILE)')
const rounds = Number(values.rounds)

const db = openDatabase({ file: values.db })
const search = createSearch({ db, ...(values.encoder ? {} : { encoder: null }) })
search.indexQueued()
search.catchUp()
const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
// The word index in memory, where the tree has one (read on its own thread once the library is quiet).
while (search.words?.built === 0) await new Promise((r) => setTimeout(r, 200))
for (const q of QUERIES) await search.search(q, { limit: 10 })

const session = new Session()
if (!values.plain) {
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 100 })
  await session.post('Profiler.start')
}
const c0 = cpu()
const t0 = performance.now()
let asked = 0
const wall: number[] = []
for (let r = 0; r < rounds; r++) {
  for (const q of QUERIES) {
    const s = performance.now()
    await search.search(q, { limit: 10 + (r % 3) * 5 })
    wall.push(performance.now() - s)
    asked++
  }
}
const cpuPer = (cpu() - c0) / asked
const wallPer = (performance.now() - t0) / asked
const profile = values.plain ? null : (await session.post('Profiler.stop')).profile
if (profile && values.profile) writeFileSync(values.profile, JSON.stringify(profile))

const b = profile ? breakdown(profile as Profile, asked) : { profiledMsPerSearch: null, text: '' }
const sorted = [...wall].sort((a, b) => a - b)
console.log(JSON.stringify({ bench: 'search-profile', queries: QUERIES.length, asked, loadAverage: os.loadavg().map((x) => Math.round(x * 10) / 10),
  cpuMsPerSearch: Math.round(cpuPer * 100) / 100, wallMsPerSearch: Math.round(wallPer * 100) / 100, p95Ms: Math.round(sorted[Math.floor(sorted.length * 0.95)] * 100) / 100,
  profiledMsPerSearch: b.profiledMsPerSearch, semanticModel: (await search.search(QUERIES[0], { limit: 10 })).semanticModel }, null, 2))
console.log(`\n${b.text}`)
await search.close()
closeDatabase(db)
