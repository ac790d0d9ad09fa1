import { describe, expect, it } from 'vitest'
import { createBatchPacing, createPacer, pauseAfter, shareAt } from '../../src-main/background/index.ts'

const hold = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end) { /* a slice of work */ } }

describe('pacing background slices on the HTTP thread', () => {
  it('while requests are answered, the pause keeps the work to its share of the thread', () => {
    expect(pauseAfter(4, 0.5, { share: 0.1, idleMs: 10 })).toBeCloseTo(36)
    expect(pauseAfter(30, 0.5, { share: 0.25, idleMs: 1 })).toBeCloseTo(90)
    // never shorter than the idle pause
    expect(pauseAfter(0.2, 0.5, { share: 0.1, idleMs: 10 })).toBe(10)
  })

  it('takes less of the thread the less the requests leave it, down to a twentieth', () => {
    // Before: a quarter whatever the load, so with requests at 0.8 the thread had no idle time left.
    expect(pauseAfter(10, 0.6, { share: 0.25, idleMs: 1 })).toBeCloseTo(30)
    expect(pauseAfter(10, 0.7, { share: 0.25, idleMs: 1 })).toBeCloseTo(10 * (1 / 0.15 - 1))
    expect(pauseAfter(10, 0.8, { share: 0.25, idleMs: 1 })).toBeCloseTo(190)
    expect(pauseAfter(10, 1, { share: 0.25, idleMs: 1 })).toBeCloseTo(190)
    expect(shareAt(0.95, 0.1)).toBe(0.05)
    // a share already under the floor is kept
    expect(shareAt(0.95, 0.02)).toBe(0.02)
    // work that does not yield keeps its share
    expect(pauseAfter(10, 0.8, { share: 0.25, idleMs: 1, yields: false })).toBeCloseTo(30)
  })

  it('an idle thread gets the idle pause whatever the slice took', () => {
    expect(pauseAfter(40, 0.01, { share: 0.1, idleMs: 10 })).toBe(10)
  })

  it('measures the slice it runs and asks the thread how busy it was since the last one', () => {
    const seen: number[] = []
    let busy = 0.9
    const pacer = createPacer({ share: 0.1, idleMs: 10, utilisation: (since) => { seen.push(since.active); return busy } })
    const first = pacer.slice(() => { hold(5); return 'a' })
    expect(first.value).toBe('a')
    expect(first.pauseMs).toBeGreaterThanOrEqual(45)
    busy = 0.01
    expect(pacer.slice(() => hold(5)).pauseMs).toBe(10)
    expect(seen).toHaveLength(2)
    // the second slice asked about the time since the first ended, not since the pacer was made
    expect(seen[1]).toBeGreaterThanOrEqual(seen[0])
  })

  it('a slice that throws still leaves the pacer usable', () => {
    const pacer = createPacer({ share: 0.5, idleMs: 3, utilisation: () => 0 })
    expect(() => pacer.slice(() => { throw new Error('locked') })).toThrow('locked')
    expect(pacer.slice(() => 1)).toEqual({ value: 1, pauseMs: 3 })
  })
})

describe('pacing a job between its batches', () => {
  const pacing = (utilization: number, active: number) => {
    const slept: number[] = []
    const next = createBatchPacing({ utilisation: () => ({ utilization, active }), sleep: async (ms) => void slept.push(ms) })
    return { next, slept }
  }

  it('waits as long as the thread was busy when it was saturated (requests queueing behind the job)', async () => {
    const { next, slept } = pacing(0.97, 120)
    await next()
    await next()
    expect(slept).toEqual([120, 120])
  })

  it('never waits longer than its cap', async () => {
    const { next, slept } = pacing(1, 4000)
    await next()
    expect(slept).toEqual([250])
  })

  it('only yields a turn of the event loop while the thread has time to spare', async () => {
    const { next, slept } = pacing(0.6, 300)
    await next()
    expect(slept).toEqual([0])
  })

  it('by default measures the event loop and returns', async () => {
    const next = createBatchPacing({ maxPauseMs: 5 })
    await next()
    await next()
  })
})
