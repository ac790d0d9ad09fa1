import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'

/**
 * A fresh process holds ~60 MB of live objects and makes garbage at full speed; it prints the largest
 * its V8 heap grew to and the live size after a full collection. With limitHeapGrowth() called first
 * the heap may pass the live size by the growing factor (1.3), V8's fixed steps and the young
 * generation; without, V8 let it reach ~5x here.
 */
const CHURN = `
import { getHeapStatistics } from 'node:v8'
if (process.argv[1] === 'limit') (await import(${JSON.stringify(new URL('../../src-main/app/heap-growth.ts', import.meta.url).href)})).limitHeapGrowth()
const live = []
for (let i = 0; i < 600000; i++) live.push({ a: 'x' + i, b: [i, i + 1] })
let peak = 0
for (let round = 0; round < 150; round++) {
  const garbage = []
  for (let i = 0; i < 100000; i++) garbage.push({ s: 'y' + i, n: [i] })
  peak = Math.max(peak, getHeapStatistics().total_heap_size)
}
globalThis.gc()
process.stdout.write(JSON.stringify({ peak, live: getHeapStatistics().used_heap_size, kept: live.length }))
`
const churn = (mode: 'limit' | 'default'): { peak: number; live: number } =>
  JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', CHURN, mode], { encoding: 'utf8', env: { ...process.env, SHEAF_HEAP_GROWING_PERCENT: '' } })) as { peak: number; live: number }

describe('limitHeapGrowth', () => {
  it('holds a heap making garbage to under 2.5 times its live size (young generation included), where V8 alone lets it grow further', () => {
    const limited = churn('limit')
    const free = churn('default')
    expect(limited.peak / limited.live).toBeLessThan(2.5)
    expect(free.peak / free.live).toBeGreaterThan(3.5)
  }, 60_000)
})
