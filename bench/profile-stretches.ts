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
import { parseArgs } from 'node:util'
import { readProfile } from './cpu-profile.ts'

const { values } = parseArgs({ options: {
  read: { type: 'string' }, 'min-ms': { type: 'string', default: '100' }, top: { type: 'string', default: '12' }, stretches: { type: 'string', default: '15' },
  from: { type: 'string', default: '0' }, to: { type: 'string', default: 'Infinity' },
} })
if (!values.read) throw new Error('--read DIR|FILE is required')
const { file, samples, stackOf, isIdle } = readProfile(values.read)

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
const [from, to] = [Number(values.from) * 1000, Number(values.to) * 1000]
for (const { id, at, ms } of samples) {
  if (at < from || at > to) continue
  if (isIdle(id)) {
    if (current && current.ms >= minMs) stretches.push(current)
    current = null
  } else {
    add(whole, id, ms)
    current ??= { ...tally(), at }
    add(current, id, ms)
  }
}
if (current && current.ms >= minMs) stretches.push(current)

const busyIn = stretches.reduce((s, t) => s + t.ms, 0)
console.log(`${file}: ${((samples.at(-1)?.at ?? 0) / 1000).toFixed(1)} s profiled, ${(whole.ms / 1000).toFixed(1)} s busy; ${stretches.length} stretches of ${minMs} ms or more without an idle sample (${(busyIn / 1000).toFixed(1)} s)`)
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
