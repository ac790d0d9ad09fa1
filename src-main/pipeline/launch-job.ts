import { DEFAULT_CATEGORIES } from '../../src-shared/categories.ts'
import { createInProcessRunner, createLocalProvider, createWorkerPool, type AiProvider, type LocalRunner } from '../ai/index.ts'
import type { Logger } from '../app/logger.ts'
import type { MediaCache } from '../media/index.ts'
import { allTagNames, categoriesForPipeline, insertJobError, jobById, seedCategoriesIfEmpty, setJobStatus, type Db, type JobRecord } from '../store/index.ts'
import type { ImageTools } from './context.ts'
import { retryBusy } from './db-guard.ts'
import type { EventHub } from './events.ts'
import { runJob } from './job-runner.ts'

export interface LaunchDeps {
  db: Db
  clock: () => number
  log: Logger
  hub: EventHub
  activeProvider: () => Promise<AiProvider>
  mediaCache: () => MediaCache | null
  images: ImageTools
  offThread?: boolean
  batchScale?: number
}

export interface Launched { abort: AbortController; done: Promise<void> }

/**
 * Runs a stored job's stages in the background with its provider and local models, and closes them after;
 * every error is recorded on the job. `ended` is called once it is over, whatever happened.
 */
export function launchJob(job: JobRecord, deps: LaunchDeps, ended: () => void): Launched {
  const { db, log } = deps
  const abort = new AbortController()
  let provider: AiProvider | null = null
  let runner: LocalRunner | null = null
  const done = (async () => {
    try {
      try {
        // A job started for the local models (an upgrade) stays with them, whatever is configured now.
        provider = job.provider === 'local' ? createLocalProvider() : await deps.activeProvider()
      } catch (e) {
        provider = createLocalProvider()
        await noteFallback(job.id, e, deps)
      }
      const config = await retryBusy(db, () => {
        seedCategoriesIfEmpty(db, DEFAULT_CATEGORIES, deps.clock())
        return { categories: categoriesForPipeline(db), existingTags: allTagNames(db) }
      })
      const categories = config.categories
      const runnerConfig = {
        existingTags: config.existingTags,
        categories: categories.map((c) => ({ id: c.id, slug: c.slug, name: c.name, description: c.description })),
        examples: [] as Array<{ text: string; categoryId: number }>,
      }
      runner = deps.offThread === false ? createInProcessRunner(runnerConfig) : createWorkerPool(runnerConfig)
      const outcome = await runJob(job, abort.signal, {
        db, now: deps.clock, log, hub: deps.hub, provider, runner, mediaCache: deps.mediaCache(), images: deps.images, categories, batchScale: deps.batchScale,
      })
      log.info(`pipeline job ${job.id} ${outcome}`)
    } catch (e) {
      await recordFailure(job.id, e, deps)
    } finally {
      await (runner as LocalRunner | null)?.close().catch(() => {})
      await (provider as AiProvider | null)?.close?.().catch(() => {})
      ended()
    }
  })().catch((e) => log.error(`pipeline job ${job.id}: unexpected error`, e))
  return { abort, done }
}

async function noteFallback(jobId: string, e: unknown, { db, clock }: LaunchDeps): Promise<void> {
  const message = `the configured provider cannot be used (${(e as Error).message}); the local models did the work`
  await retryBusy(db, () => insertJobError(db, { jobId, bookmarkId: null, stage: 'semantic_tagging', message, fellBack: true, now: clock() }))
}

/** Records a job's failure; never throws (a failure to record is logged, not allowed to crash the server). */
async function recordFailure(jobId: string, e: unknown, { db, clock, log, hub }: LaunchDeps): Promise<void> {
  log.error(`pipeline job ${jobId} failed`, e)
  try {
    await retryBusy(db, () => setJobStatus(db, jobId, 'failed', clock(), { finished: true, error: (e as Error)?.message ?? String(e) }))
    const j = jobById(db, jobId)
    hub.publish({ stage: 'complete', progress: 100, processed: j?.processed ?? 0, errors: j?.errors ?? 0 })
  } catch (e2) {
    log.error(`pipeline job ${jobId}: could not record the failure`, e2)
    hub.publish({ stage: 'complete', progress: 100, processed: 0, errors: 0 })
  }
}
