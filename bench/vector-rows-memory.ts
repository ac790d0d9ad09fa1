/**
 * What a rescored row costs in the kernel's dotsAt (src-main/vectors/space.ts): 2,048 int8 rows of 512 dims a call,
 * the same rows every call (in the cache) against rows picked across 100,000 (51 MB) anew each call, as the rescoring
 * after the code pass picks them. Prints ns per row of each, and the load average. In-process, one thread; `--root`
 * another tree's src-main (a `git archive` of main, say). Under the bench lock for figures you keep:
 * flock -x /work/bench.lock node bench/vector-rows-memory.ts [--root DIR]
 */
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { root: { type: 'string', default: '.' } } })
const root = resolve(values.root)
const { createSpace, openKernel, spaceRows } = await import(`${root}/src-main/vectors/space.ts`)
const ROWS = 100_000
const DIM = 512
const PICKED = 2048
const CALLS = 500
const loadBefore = loadavg()[0]
const space = createSpace(DIM, ROWS)
const k = openKernel(space)
const rows = spaceRows(space)
for (let i = 0; i < rows.length; i++) rows[i] = ((i * 7919) % 255) - 127
for (let i = 0; i < DIM; i++) k.query[i] = ((i * 31) % 255) - 127

/** ns per row of dotsAt over the rows `pick(i, call)` gives (sorted, as the rescoring asks), after 100 calls to warm up. */
const nsPerRow = (pick: (i: number, call: number) => number): number => {
  let ms = 0
  for (let call = 0; call < CALLS + 100; call++) {
    k.list.set(Int32Array.from({ length: PICKED }, (_, i) => pick(i, call)).sort())
    const t = performance.now()
    k.dotsAt(k.queryAt, space.rowsAt, k.listAt, PICKED, space.rowBytes, k.outAt)
    if (call >= 100) ms += performance.now() - t
  }
  return Math.round(ms / CALLS / PICKED * 1e7) / 10
}
const cached = nsPerRow((i) => i * 3)
const scattered = nsPerRow((i, call) => (Math.imul(i * 7 + call * 131071, 2654435761) >>> 0) % ROWS)
console.log(JSON.stringify({ bench: 'vector-rows-memory', root, simd: k.simd, rowsPerCall: PICKED, nsPerRow: { cached, scattered },
  loadAverage: { before: loadBefore, after: loadavg()[0] } }))
