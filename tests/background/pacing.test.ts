import { describe, expect, it } from 'vitest'
import { createBatchPacing, createPacer, MEASURE_PAUSE_MS, pauseAfter, shareAt } from '../../src-main/background/index.ts'

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
  /** A job whose batches hold the thread `batch` ms each; `pauseBusy` is the thread's utilisation while it pauses. */
  const job = ({ batch, pauseBusy, batchBusy = 1, maxPauseMs }: { batch: number; pauseBusy: number; batchBusy?: number; maxPauseMs?: number }) => {
    const slept: number[] = []
    let clock = 0
    let pausing = false
    const next = createBatchPacing({
      maxPauseMs,
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms)
        clock += ms
        pausing = true
      },
      utilisation: () => {
        const seen = pausing ? { utilization: pauseBusy, active: 0 } : { utilization: batchBusy, active: batch }
        pausing = false
        return seen
      },
    })
    const run = async (batches: number) => {
      for (let i = 0; i < batches; i++) {
        clock += batch
        await next()
      }
      return slept
    }
    return { run }
  }

  it('alone on the thread it runs flat out, but for a short look at the thread now and then', async () => {
    const slept = await job({ batch: 10, pauseBusy: 0 }).run(40)
    expect(slept.filter((ms) => ms > MEASURE_PAUSE_MS)).toEqual([])
    expect(slept.filter((ms) => ms === MEASURE_PAUSE_MS).length).toBeGreaterThanOrEqual(3)
    expect(slept.filter((ms) => ms === MEASURE_PAUSE_MS).length).toBeLessThanOrEqual(5)
  })

  it('its own batches holding the thread do not count as requests queueing behind it', async () => {
    // Before: the thread three quarters busy since the last batch (the batch itself included) meant a pause as long as that.
    const slept = await job({ batch: 40, batchBusy: 1, pauseBusy: 0.01 }).run(10)
    expect(Math.max(...slept)).toBe(MEASURE_PAUSE_MS)
  })

  it('while requests take 0.6 of the thread, it keeps to a quarter of it', async () => {
    // Before: 0.6 of the thread was under the three quarters that made it pause at all.
    const slept = await job({ batch: 10, pauseBusy: 0.6 }).run(30)
    expect(slept.at(-1)).toBeCloseTo(30, 0)
  })

  it('the fuller the thread, the less it takes, down to a twentieth, and never longer than its cap', async () => {
    expect((await job({ batch: 10, pauseBusy: 0.95 }).run(30)).at(-1)).toBeCloseTo(190, 0)
    expect((await job({ batch: 100, pauseBusy: 0.95, maxPauseMs: 500 }).run(30)).at(-1)).toBe(500)
  })

  it('by default measures the event loop and returns', async () => {
    const next = createBatchPacing({ maxPauseMs: 5 })
    await next()
    await next()
  })
})
