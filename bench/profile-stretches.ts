/**
 * Where a thread's long stalls go: reads a V8 CPU profile (`--cpu-prof`, e.g. the server's from
 * `SHEAF_BENCH_CPU_PROF=DIR node bench/load.ts`) and prints each stretch of at least --min-ms without
 * an idle sample (the event loop never waited for I/O: requests queued behind it), with the functions
 * it spent its time in (inclusive, and self), then the same for the whole profile.
 * Usage: node bench/profile-stretches.ts --read DIR|FILE [--min-ms 100] [--top 12] [--stretches 15] [--from S] [--to S]
 *   --from/--to: only the samples between S seconds after the profile began (about when the process
 *   started; bench/load.ts prints where its phases fell on that clock).
 *   DIR: the thread whose file name ends in .0.NNN.cpuprofile (the main thread) is read.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const { values } = parseArgs({ options: {
  read: { type: 'string' }, 'min-ms': { type: 'string', default: '100' }, top: { type: 'string', default: '12' }, stretches: { type: 'string', default: '15' },
  from: { type: 'string', default: '0' }, to: { type: 'string', default: 'Infinity' },
} })
if (!values.read) throw new Error('--read DIR|FILE is required')

const mainThreadFile = (dir: string): string => {
  const f = readdirSync(dir).find((n) => /\.\d+\.0\.\d+\.cpuprofile$/.test(n))
  if (!f) throw new Error(`no main-thread profile (*.0.NNN.cpuprofile) in ${dir}`)
  return join(dir, f)
}
const file = statSync(values.read).isDirectory() ? mainThreadFile(values.read) : values.read
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile

const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

const where = (f: CallFrame): string => {
  const src = f.url.replace(/^file:\/\//, '').replace(/^.*?\/(src-main|src-shared|node_modules)\//, '$1/')
  return `${f.functionName || '(anonymous)'} ${src ? `${src}:${f.lineNumber + 1}` : ''}`.trim()
}
/** Each sampled node's stack as distinct frame names (a recursive frame counts once). */
const stackCache = new Map<number, string[]>()
const stackOf = (id: number): string[] => {
  let s = stackCache.get(id)
  if (s) return s
  const names = new Set<string>()
  for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
    const f = byId.get(n)!.callFrame
    if (f.functionName !== '(root)') names.add(where(f))
  }
  s = [...names]
  stackCache.set(id, s)
  return s
}
const isIdle = (id: number) => byId.get(id)!.callFrame.functionName === '(idle)'

interface Tally { ms: number; inclusive: Map<string, number>; self: Map<string, number> }
const tally = (): Tally => ({ ms: 0, inclusive: new Map(), self: new Map() })
const add = (t: Tally, id: number, ms: number) => {
  t.ms += ms
  const stack = stackOf(id)
  t.self.set(stack[0] ?? '(root)', (t.self.get(stack[0] ?? '(root)') ?? 0) + ms)
  for (const name of stack) t.inclusive.set(name, (t.inclusive.get(name) ?? 0) + ms)
}
const top = (m: Map<string, number>, n: number, total: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n)
  .map(([name, ms]) => `    ${ms.toFixed(0).padStart(6)} ms ${(100 * ms / total).toFixed(0).padStart(3)}%  ${name}`).join('\n')

const minMs = Number(values['min-ms'])
const n = Number(values.top)
const whole = tally()
const stretches: Array<Tally & { at: number }> = []
let current: (Tally & { at: number }) | null = null
let clock = 0
const [from, to] = [Number(values.from) * 1000, Number(values.to) * 1000]
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i]
  const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000
  if (clock < from || clock > to) {
    clock += (profile.timeDeltas[i] ?? 0) / 1000
    continue
  }
  if (isIdle(id)) {
    if (current && current.ms >= minMs) stretches.push(current)
    current = null
  } else {
    add(whole, id, ms)
    current ??= { ...tally(), at: clock }
    add(current, id, ms)
  }
  clock += (profile.timeDeltas[i] ?? 0) / 1000
}
if (current && current.ms >= minMs) stretches.push(current)

const busyIn = stretches.reduce((s, t) => s + t.ms, 0)
console.log(`${file}: ${(clock / 1000).toFixed(1)} s profiled, ${(whole.ms / 1000).toFixed(1)} s busy; ${stretches.length} stretches of ${minMs} ms or more without an idle sample (${(busyIn / 1000).toFixed(1)} s)`)
for (const s of [...stretches].sort((a, b) => b.ms - a.ms).slice(0, Number(values.stretches))) {
  console.log(`\n  at ${(s.at / 1000).toFixed(2)} s: ${s.ms.toFixed(0)} ms; inclusive:`)
  console.log(top(s.inclusive, n, s.ms))
  console.log('   self:')
  console.log(top(s.self, Math.ceil(n / 2), s.ms))
}
console.log('\nwhole profile, inclusive:')
console.log(top(whole.inclusive, n * 2, whole.ms))
console.log(' self:')
console.log(top(whole.self, n, whole.ms))
