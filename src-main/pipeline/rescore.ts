import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { createWorkerRunner } from '../ai/index.ts'
import type { Logger } from '../app/logger.ts'
import { holdHeapGrowthDown } from '../background/index.ts'
import { analysedBookmarkIds, categoriesForPipeline, loadPipelinePosts, replacePipelineCategories, transaction, type Db } from '../store/index.ts'
import { retryBusy } from './context.ts'
import { categoryConfig, suggestWithThreads, withinLocks } from './stages/categorization.ts'

/** A person's corrections come in bursts: re-scoring starts once they pause this long. */
const SETTLE_MS = 3000
const PAGE = 500

export interface RescoreStatus {
  running: boolean
  done: number
  total: number
  finishedAt: number | null
}

/**
 * Re-scores the library's categories in the background after a person assigns or removes one: their
 * choices are examples that move each category, so the other posts are placed again (a person's own
 * choices and removals stay). Waits while a pipeline job runs (the job's own stage 4 uses them).
 */
export function createRescorer({ db, clock, log, busy }: { db: Db; clock: () => number; log: Logger; busy: () => boolean }) {
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> | null = null
  let pending = false
  let closed = false
  const status: RescoreStatus = { running: false, done: 0, total: 0, finishedAt: null }
  const abort = new AbortController()

  const schedule = () => {
    if (closed) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(tick, SETTLE_MS)
    timer.unref()
  }

  const tick = () => {
    timer = null
    if (busy() || running) {
      pending = true
      return
    }
    const letGo = holdHeapGrowthDown()
    running = run()
      .catch((e) => log.error('re-scoring categories failed', e))
      .finally(() => {
        letGo()
        running = null
        status.running = false
        if (pending && !closed) {
          pending = false
          schedule()
        }
      })
  }

  async function run(): Promise<void> {
    const categories = categoriesForPipeline(db)
    if (categories.length === 0) return
    const ids = analysedBookmarkIds(db)
    Object.assign(status, { running: true, done: 0, total: ids.length })
    const runner = createWorkerRunner({ existingTags: [], categories: [], examples: [] }, { background: true })
    try {
      await runner.configure(await categoryConfig({ db, categories, runner }))
      for (let i = 0; i < ids.length && !abort.signal.aborted; i += PAGE) {
        if (busy()) {
          pending = true
          return
        }
        const page = ids.slice(i, i + PAGE)
        const { suggested, placed } = await suggestWithThreads(page, loadPipelinePosts(db, page), { db, runner, categories, remoteCategories: new Map() })
        await retryBusy(db, () => transaction(db, () => replacePipelineCategories(db, withinLocks(db, placed, suggested), clock())), { signal: abort.signal })
        status.done += page.length
        await yieldToLoop()
      }
      status.finishedAt = clock()
    } finally {
      await runner.close()
    }
  }

  return {
    /** A person changed a post's categories. */
    changed: schedule,
    /** A pipeline job ended: re-score now if a change waited for it. */
    afterJob() {
      if (pending) {
        pending = false
        schedule()
      }
    },
    status: (): RescoreStatus => ({ ...status }),
    /** Resolves when no re-scoring is scheduled or running. */
    async idle() {
      while (timer || running) await (running ?? new Promise((r) => setTimeout(r, 50)))
    },
    async close() {
      closed = true
      if (timer) clearTimeout(timer)
      abort.abort()
      await running
    },
  }
}
