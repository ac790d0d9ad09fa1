import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { DEFAULT_CATEGORIES } from '../../src-shared/categories.ts'
import type { PipelineStage } from '../../src-shared/schemas/pipeline.ts'
import { createInProcessRunner, createLocalProvider, createWorkerPool, type AiProvider, type LocalRunner } from '../ai/index.ts'
import type { Logger } from '../app/logger.ts'
import { createBatchPacing, holdHeapGrowthDown } from '../background/index.ts'
import type { MediaCache } from '../media/index.ts'
import {
  addJobUsage, allTagNames, categoriesForPipeline, countJobItems, countJobItemsAtLeast, countJobProblemPosts, insertJobError, insertJobErrors,
  jobById, jobItemsBelow, markJobItems, seedCategoriesIfEmpty, setJobStatus, transaction, updateJobProgress, type Db, type JobErrorWrite,
  type JobRecord, type PipelineCategory,
} from '../store/index.ts'
import { createReadingStore, isBusy, retryBusy, waitForWriters, writeWhenFree, type ImageTools, type RunContext, type Stage, type VectorLender } from './context.ts'
import { overallProgress, type EventHub } from './events.ts'
import { categorization } from './stages/categorization.ts'
import { entityExtraction } from './stages/entity-extraction.ts'
import { semanticTagging } from './stages/semantic-tagging.ts'
import { visionAnalysis } from './stages/vision-analysis.ts'
import type { Loan } from '../vectors/index.ts'

export const STAGES: Stage[] = [entityExtraction, visionAnalysis, semanticTagging, categorization]

export interface RunDeps {
  db: Db
  now: () => number
  log: Logger
  hub: EventHub
  provider: AiProvider
  runner: LocalRunner
  mediaCache: MediaCache | null
  images: ImageTools
  categories: PipelineCategory[]
  /** Multiplies stage batch sizes (tests use small batches to see several progress events). */
  batchScale?: number
  vectors?: VectorLender
}

export type RunOutcome = 'completed' | 'cancelled' | 'interrupted'

/**
 * Runs a stored job from where it stopped: each stage takes the job's posts that have not finished
 * it, batch by batch; every batch commits its results and marks its posts, so a cancel or a crash
 * loses at most the batch in flight. `signal` with reason 'shutdown' leaves the job resumable.
 */
export async function runJob(job: JobRecord, signal: AbortSignal, deps: RunDeps): Promise<RunOutcome> {
  const { db } = deps
  // Errors wait for the next batch write and go in its transaction: one statement per batch, not one
  // commit per failed image, and a batch a crash loses leaves no errors behind to be recorded twice.
  let pending: JobErrorWrite[] = []
  const writeErrors = () => {
    insertJobErrors(db, job.id, pending)
    pending = []
  }
  const ctx: RunContext = {
    jobId: job.id,
    force: job.force,
    signal,
    db,
    now: deps.now,
    log: deps.log,
    provider: deps.provider,
    runner: deps.runner,
    mediaCache: deps.mediaCache,
    images: deps.images,
    categories: deps.categories,
    entities: createReadingStore(),
    remoteCategories: new Map(),
    vectors: deps.vectors,
    recordError: (bookmarkId, stage, message, fellBack = false) => void pending.push({ bookmarkId, stage, message, fellBack, now: deps.now() }),
    addUsage: (u) => addJobUsage(db, job.id, u),
    writable: () => waitForWriters(db, signal),
    async commit(ids, doneStage, write) {
      await writeWhenFree(db, () => {
        if (signal.aborted) return
        write?.()
        writeErrors()
        markJobItems(db, job.id, ids, doneStage)
      }, { signal })
    },
  }
  const total = countJobItems(db, job.id)
  // A pause between batches while requests queue behind the job (its writes and cheap stages run here).
  const betweenBatches = createBatchPacing()
  for (const stage of STAGES) {
    if (signal.aborted) break
    const ids = jobItemsBelow(db, job.id, stage.index)
    let current = total - ids.length
    const emit = async () => {
      // Progress is advisory: a busy database must not fail the job over it.
      await writeWhenFree(db, () => updateJobProgress(db, job.id, { stage: stage.name, current, total, now: deps.now() }), { signal }).catch((e) => {
        if (!isBusy(e)) throw e
      })
      deps.hub.publish({ stage: stage.name, progress: overallProgress(stage.index, current, total), current, total })
    }
    await emit()
    if (ids.length === 0) continue
    try {
      await stage.prepare?.(ctx)
    } catch (e) {
      if (signal.aborted) break
      throw e
    }
    const size = Math.max(1, Math.round(stage.batchSize * (deps.batchScale ?? 1)))
    const batches = Array.from({ length: Math.ceil(ids.length / size) }, (_, b) => ids.slice(b * size, (b + 1) * size))
    const ahead = analysisAhead(stage, batches, ctx)
    for (const [b, batch] of batches.entries()) {
      if (signal.aborted) break
      await runIsolated(stage, batch, ctx, ahead(b))
      if (signal.aborted) break
      current += batch.length
      await emit()
      await betweenBatches()
    }
    if (!signal.aborted) await stage.finish?.(ctx)
  }
  if (signal.aborted && signal.reason === 'shutdown') return 'interrupted'
  const status = signal.aborted ? 'cancelled' : 'completed'
  const { processed, errors } = await retryBusy(db, () => {
    if (!signal.aborted) transaction(db, writeErrors)
    const counts = { processed: countJobItemsAtLeast(db, job.id, 4), errors: countJobProblemPosts(db, job.id) }
    setJobStatus(db, job.id, status, deps.now(), { finished: true, ...counts })
    return counts
  })
  deps.hub.publish({ stage: 'complete', progress: 100, processed, errors })
  return status
}

const BUSY_RETRIES = 6
/** Batches analysed ahead of the one being written, so the workers never wait for a write. */
const LOOKAHEAD = 2

/**
 * Starts the analysis of batch `b` and of the next LOOKAHEAD batches, and hands back batch b's.
 * A failed analysis is handled where run awaits it (then retried without it).
 */
function analysisAhead(stage: Stage, batches: number[][], ctx: RunContext): (b: number) => Promise<unknown> | undefined {
  const started = new Map<number, Promise<unknown>>()
  return (b) => {
    for (let j = b; j <= b + LOOKAHEAD && j < batches.length && stage.analyse && !ctx.signal.aborted; j++) {
      if (started.has(j)) continue
      const p = stage.analyse(batches[j], ctx)
      p.catch(() => {})
      started.set(j, p)
    }
    const mine = started.get(b)
    started.delete(b)
    return mine
  }
}

/**
 * A batch that throws is retried post by post, so one bad post cannot sink the others. A busy
 * database is not the posts' fault: the batch waits and runs again before anything is marked failed.
 */
async function runIsolated(stage: Stage, ids: number[], ctx: RunContext, analysed?: Promise<unknown>, busyTries = 0): Promise<void> {
  try {
    await ctx.writable()
    await stage.run(ids, ctx, analysed)
  } catch (e) {
    if (ctx.signal.aborted) return
    if (isBusy(e) && busyTries < BUSY_RETRIES) {
      ctx.log.warn(`pipeline ${stage.name}: the database is busy; retrying a batch of ${ids.length}`)
      await yieldToLoop()
      await new Promise((r) => setTimeout(r, Math.min(5000, 100 * 2 ** busyTries)))
      return runIsolated(stage, ids, ctx, undefined, busyTries + 1)
    }
    if (ids.length === 1) {
      ctx.recordError(ids[0], stage.name as PipelineStage, `${stage.name} failed: ${(e as Error).message}`)
      await ctx.commit(ids, stage.index)
      return
    }
    ctx.log.warn(`pipeline ${stage.name}: a batch of ${ids.length} failed (${(e as Error).message}); retrying one by one`)
    for (const id of ids) {
      if (ctx.signal.aborted) return
      await runIsolated(stage, [id], ctx)
    }
  }
}

// Launching: the provider and local models a job runs with, set up before runJob and closed after it.

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
  vectors?: VectorLender
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
  // Rows lent to the runners' threads: given back once those threads are closed, however the job ended.
  const loans: Loan[] = []
  const vectors: VectorLender | undefined = deps.vectors && (async (model) => {
    const lender = await deps.vectors!(model)
    return lender && { lend: (ids) => { const loan = lender.lend(ids); loans.push(loan); return loan } }
  })
  const done = (async () => {
    const letGo = holdHeapGrowthDown()
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
        db, now: deps.clock, log, hub: deps.hub, provider, runner, mediaCache: deps.mediaCache(), images: deps.images, categories, batchScale: deps.batchScale, vectors,
      })
      log.info(`pipeline job ${job.id} ${outcome}`)
    } catch (e) {
      await recordFailure(job.id, e, deps)
    } finally {
      await (runner as LocalRunner | null)?.close().catch(() => {})
      for (const loan of loans) loan.giveBack()
      await (provider as AiProvider | null)?.close?.().catch(() => {})
      letGo()
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
