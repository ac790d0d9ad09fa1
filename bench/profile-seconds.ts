/**
 * Where a thread's time goes, second by second: reads a V8 CPU profile (`--cpu-prof`, e.g. the server's
 * from `SHEAF_BENCH_CPU_PROF=DIR node bench/load.ts`) and prints, for each second from --from on, the ms
 * of the thread in each kind of work. A sample counts for the first kind (in the order of KINDS) that any
 * frame of its stack belongs to, so the vector catch-up run inside a search counts as catch-up.
 * Usage: node bench/profile-seconds.ts --read DIR|FILE --from S [--to S] [--detail KIND] [--top 8]
 *   --from/--to: seconds after the profile began (bench/load.ts prints its busy phase's on that clock).
 *   --detail KIND: also the heaviest functions (inclusive) of that kind in each second.
 */
import { parseArgs } from 'node:util'
import { readProfile } from './cpu-profile.ts'

/** Kinds of work, by a frame's name ("fn src-main/path.ts:line"); the first match wins. */
const KINDS: Array<[string, RegExp]> = [
  ['idle', /^\(idle\)/],
  ['GC', /^\(garbage collector\)/],
  ['vector catch-up', /^(catchUp|refresh|refreshBatch) src-main\/search\/semantic\.ts|^\S+ src-main\/search\/vector-catch-up/],
  ['vector reads', /^(readSlice|slice|load) src-main\/search\/semantic\.ts/],
  ['word catch-up', /^(indexQueued|wordsInBackground) src-main\/search\/index-catch-up\.ts/],
  ['import', /src-main\/(library\/import|importers\/)/],
  ['upload', /src-main\/http\/upload\.ts/],
  ['key fill', /src-main\/library\/duplicate-keys-fill\.ts/],
  ['pipeline', /src-main\/(pipeline|ai)\//],
  ['search', /src-main\/(search\/|http\/routes\/search\.ts)/],
  ['list', /src-main\/http\/routes\/bookmarks\.ts/],
  ['stats', /src-main\/(http\/routes\/stats\.ts|library\/stats\.ts)/],
]
const REST = 'HTTP and the rest'

const { values } = parseArgs({ options: {
  read: { type: 'string' }, from: { type: 'string', default: '0' }, to: { type: 'string', default: 'Infinity' },
  detail: { type: 'string' }, top: { type: 'string', default: '8' },
} })
if (!values.read) throw new Error('--read DIR|FILE is required')
const { file, samples, stackOf } = readProfile(values.read)
const kindCache = new Map<number, string>()
const kindOf = (id: number): string => {
  let k = kindCache.get(id)
  if (k === undefined) {
    const stack = stackOf(id)
    k = stack.length === 0 ? 'idle' : KINDS.find(([, re]) => stack.some((f) => re.test(f)))?.[0] ?? REST
    kindCache.set(id, k)
  }
  return k
}

const [from, to] = [Number(values.from) * 1000, Number(values.to) * 1000]
const seconds: Array<Map<string, number>> = []
const detail: Array<Map<string, number>> = []
for (const { id, at, ms } of samples) {
  if (at < from || at >= to) continue
  const s = Math.floor((at - from) / 1000)
  const kind = kindOf(id)
  const row = (seconds[s] ??= new Map())
  row.set(kind, (row.get(kind) ?? 0) + ms)
  if (kind === values.detail) {
    const d = (detail[s] ??= new Map())
    for (const f of stackOf(id)) d.set(f, (d.get(f) ?? 0) + ms)
  }
}

const names = [...KINDS.map(([k]) => k), REST]
console.log(`${file}: ms of the thread per second from ${values.from} s`)
console.log(`| second | ${names.join(' | ')} |`)
console.log(`|---|${names.map(() => '---').join('|')}|`)
seconds.forEach((row, s) => console.log(`| ${s} | ${names.map((k) => Math.round(row?.get(k) ?? 0)).join(' | ')} |`))
if (values.detail) {
  for (const [s, d] of detail.entries()) {
    if (!d) continue
    console.log(`\nsecond ${s}, ${values.detail}:`)
    for (const [f, ms] of [...d].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) console.log(`  ${ms.toFixed(0).padStart(5)} ms  ${f}`)
  }
}
