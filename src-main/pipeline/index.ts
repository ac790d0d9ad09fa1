import { randomUUID } from 'node:crypto'
import { AppError } from '../../src-shared/errors.ts'
import { DEFAULT_CATEGORIES } from '../../src-shared/categories.ts'
import type { PipelineEvent, PipelineJob, PipelineJobError, RetryPipelineBody, StartPipelineBody, StartPipelineResult } from '../../src-shared/schemas/pipeline.ts'
import { createInProcessRunner, createLocalProvider, createWorkerPool, LOCAL_EMBEDDING_MODEL, type AiProvider, type LocalRunner } from '../ai/index.ts'
import type { Logger } from '../app/logger.ts'
import type { MediaCache } from '../media/index.ts'
import {
  allTagNames, categoriesForPipeline, failedBookmarkIds, insertJob, insertJobError, jobById, jobErrors, latestJob, postsAnalysedWithoutVector, seedCategoriesIfEmpty,
  selectDueBookmarkIds, setJobStatus, unfinishedJobs, type Db, type JobRecord,
} from '../store/faces/pipeline.ts'
import type { ImageTools } from './context.ts'
import { retryBusy, waitForWriters } from './db-guard.ts'
import { createEventHub, type EventHub } from './events.ts'
import { createImageTools } from './image-tools.ts'
import { runJob } from './job-runner.ts'
import { createRescorer, type RescoreStatus } from './rescore.ts'

export type { ImageTools } from './context.ts'
export type { RescoreStatus } from './rescore.ts'
export { createImageTools } from './image-tools.ts'

export interface PipelineDeps {
  db: Db
  clock: () => number
  log: Logger
  /** The provider chosen in Settings, built per job (keys read then). */
  activeProvider: () => Promise<AiProvider>
  /** The media cache, or null when media fetching is off. */
  mediaCache: () => MediaCache | null
  autoRunAfterImport: () => boolean
  images?: ImageTools
  /** Worker thread (default) or in-process local models. */
  offThread?: boolean
  batchScale?: number
}

export interface Pipeline {
  start(body: StartPipelineBody, userId: number | null): Promise<StartPipelineResult>
  /** The running job, else the last one; null before the first. */
  current(): PipelineJob | null
  /** Runs asked for that have not started yet (queued starts, posts imported during a run, a hand-over under way). */
  waiting(): number
  job(jobId: string): PipelineJob
  /** Current state first, then live events until `complete`. `live` is false when no job runs. */
  watch(onEvent: (ev: PipelineEvent) => void): { initial: PipelineEvent; live: boolean; stop(): void }
  cancel(jobId?: string): PipelineJob
  errors(jobId: string): PipelineJobError[]
  retry(body: RetryPipelineBody, userId: number | null): Promise<StartPipelineResult>
  /**
   * Import hook: analyses newly imported posts when the setting is on. Resolves once the run has
   * started (or been queued), so the import's answer is only sent when GET /api/categorize shows it.
   */
  onImported(ids: number[]): Promise<void>
  /** A person changed a post's categories: the others are re-scored in the background. */
  categoriesChanged(): void
  rescoreStatus(): RescoreStatus
  /** Continues jobs a restart interrupted. */
  resume(): void
  /** Resolves when no job is running. */
  idle(): Promise<void>
  close(): Promise<void>
}

/** `localOnly`: the job runs on the local models whatever provider is configured (an upgrade). */
type StartOptions = { localOnly?: boolean }

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString())

export function createPipeline(deps: PipelineDeps): Pipeline {
  const { db, log } = deps
  const hub = createEventHub()
  const pendingImported = new Set<number>()
  /** Starts asked for while a job ran that it does not cover (a forced run, other posts): run after it, in order. */
  const queued: Array<{ body: StartPipelineBody; userId: number | null; opts: StartOptions }> = []
  /**
   * What jobs publish through: a job's `complete` is held back while a queued run (or the run for posts
   * imported meanwhile) is about to follow,
   * so a watching stream goes straight on with that run's stages and ends only when nothing is left.
   */
  const jobHub: EventHub = {
    ...hub,
    publish: (ev) => {
      if (ev.stage === 'complete' && (queued.length > 0 || pendingImported.size > 0) && !closed) return
      hub.publish(ev)
    },
  }
  const images = deps.images ?? createImageTools()
  let active: { job: JobRecord; abort: AbortController; done: Promise<void> } | null = null
  let closed = false
  const rescorer = createRescorer({ db, clock: deps.clock, log, busy: () => active !== null })
  /** Runs being started right after the previous one ended (see launch's finally). */
  let handing = 0

  const toView = (j: JobRecord): PipelineJob => {
    const running = j.status === 'running' || j.status === 'cancelling'
    const latest = active?.job.id === j.id ? hub.latest() : null
    const stageIdx = ['entity_extraction', 'vision_analysis', 'semantic_tagging', 'categorization'].indexOf(j.stage) + 1
    const progress = !running && j.status === 'completed' ? 100 : latest?.progress ?? (stageIdx > 0 ? Math.round(((stageIdx - 1 + (j.total ? j.current / j.total : 0)) / 4) * 1000) / 10 : 0)
    return {
      jobId: j.id,
      status: j.status as PipelineJob['status'],
      stage: (j.status === 'completed' ? 'complete' : j.stage) as PipelineJob['stage'],
      progress,
      current: j.current,
      total: j.total,
      totalBookmarks: j.total,
      processed: j.processed,
      errors: j.errors,
      force: j.force,
      provider: j.provider,
      tokensIn: j.tokensIn,
      tokensOut: j.tokensOut,
      costUsd: Math.round(j.costUsd * 1e6) / 1e6,
      createdAt: iso(j.createdAt)!,
      finishedAt: iso(j.finishedAt),
      error: j.error,
    }
  }

  /** Records a job's failure; never throws (a failure to record is logged, not allowed to crash the server). */
  async function recordFailure(jobId: string, e: unknown): Promise<void> {
    log.error(`pipeline job ${jobId} failed`, e)
    try {
      await retryBusy(db, () => setJobStatus(db, jobId, 'failed', deps.clock(), { finished: true, error: (e as Error)?.message ?? String(e) }))
      const j = jobById(db, jobId)
      jobHub.publish({ stage: 'complete', progress: 100, processed: j?.processed ?? 0, errors: j?.errors ?? 0 })
    } catch (e2) {
      log.error(`pipeline job ${jobId}: could not record the failure`, e2)
      jobHub.publish({ stage: 'complete', progress: 100, processed: 0, errors: 0 })
    }
  }

  /** Starts a stored job in the background. Resolves once it is running; every later error is recorded on the job. */
  async function launch(job: JobRecord): Promise<void> {
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
          const message = `the configured provider cannot be used (${(e as Error).message}); the local models did the work`
          await retryBusy(db, () => insertJobError(db, { jobId: job.id, bookmarkId: null, stage: 'semantic_tagging', message, fellBack: true, now: deps.clock() }))
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
          db, now: deps.clock, log, hub: jobHub, provider, runner, mediaCache: deps.mediaCache(), images, categories, batchScale: deps.batchScale,
        })
        log.info(`pipeline job ${job.id} ${outcome}`)
      } catch (e) {
        await recordFailure(job.id, e)
      } finally {
        await (runner as LocalRunner | null)?.close().catch(() => {})
        await (provider as AiProvider | null)?.close?.().catch(() => {})
        active = null
        rescorer.afterJob()
        const failed = (what: string) => (e: unknown) => {
          log.error(what, e)
          const last = latestJob(db)
          hub.publish({ stage: 'complete', progress: 100, processed: last?.processed ?? 0, errors: last?.errors ?? 0 })
        }
        const starts: Array<Promise<unknown>> = []
        const next = closed ? undefined : queued.shift()
        if (next) starts.push(start(next.body, next.userId, next.opts).catch(failed('a queued pipeline run failed to start')))
        if (!closed && pendingImported.size > 0) {
          const ids = [...pendingImported]
          pendingImported.clear()
          starts.push(start({ bookmarkIds: ids }, null).catch(failed('auto-run after import failed')))
        }
        // Until the next run exists, the pipeline is handing over: watchers stay on, and it counts as waiting.
        if (starts.length > 0) {
          handing++
          void Promise.allSettled(starts).then(() => handing--)
        }
      }
    })().catch((e) => log.error(`pipeline job ${job.id}: unexpected error`, e))
    active = { job, abort, done }
  }

  // Starts are serialised, so two clicks at once give one job and one "running" answer.
  let lock: Promise<unknown> = Promise.resolve()
  function start(body: StartPipelineBody, userId: number | null, opts: StartOptions = {}): Promise<StartPipelineResult> {
    const p = lock.then(() => startNow(body, userId, opts))
    lock = p.catch(() => {})
    return p
  }

  async function startNow(body: StartPipelineBody, userId: number | null, opts: StartOptions): Promise<StartPipelineResult> {
    if (closed) throw new AppError('INTERNAL_ERROR', 'The library is closing.')
    if (active) return queueBehind(active.job, body, userId, opts)
    const providerName = opts.localOnly ? 'local' : (await deps.activeProvider().catch(() => null))?.name ?? 'local'
    // An import holds its write transaction across awaits: a job created inside it would roll back with it.
    await waitForWriters(db)
    const raced = active as { job: JobRecord } | null
    if (raced) return queueBehind(raced.job, body, userId, opts)
    const id = randomUUID()
    const ids = await retryBusy(db, () => {
      const due = selectDueBookmarkIds(db, { bookmarkIds: body.bookmarkIds, force: body.force, vectorModel: LOCAL_EMBEDDING_MODEL })
      insertJob(db, { id, force: body.force ?? false, bookmarkIds: body.bookmarkIds ?? null, provider: providerName, createdBy: userId, now: deps.clock(), items: due })
      return due
    })
    const job = jobById(db, id)!
    hub.publish({ stage: 'entity_extraction', progress: 0, current: 0, total: ids.length })
    await launch(job)
    return { jobId: id, status: 'started', totalBookmarks: ids.length }
  }

  /**
   * A start while a job runs: the running job's id when it already covers what was asked (it is not
   * limited to some posts, and either it is forced or the request is not); otherwise the request is
   * queued to run right after it (the same request twice is queued once). Never dropped.
   */
  function queueBehind(running: JobRecord, body: StartPipelineBody, userId: number | null, opts: StartOptions): StartPipelineResult {
    const base = { jobId: running.id, totalBookmarks: running.total }
    const covered = running.bookmarkIds === null && (running.force || !body.force)
    if (covered) return { ...base, status: 'running' }
    const key = JSON.stringify({ f: !!body.force, ids: body.bookmarkIds ?? null })
    if (!queued.some((q) => JSON.stringify({ f: !!q.body.force, ids: q.body.bookmarkIds ?? null }) === key)) queued.push({ body, userId, opts })
    const what = body.force ? (body.bookmarkIds ? `Redoing ${body.bookmarkIds.length} posts` : 'Redoing all posts') : 'Your run'
    const which = running.createdBy === null ? 'the automatic run after an import' : 'another run'
    return { ...base, status: 'queued', message: `${what} will start as soon as ${which} (job ${running.id.slice(0, 8)}) finishes.` }
  }

  const currentRecord = () => (active ? jobById(db, active.job.id) : latestJob(db))

  return {
    start,
    current: () => {
      const j = currentRecord()
      return j ? toView(j) : null
    },
    job(jobId) {
      const j = jobById(db, jobId)
      if (!j) throw new AppError('NOT_FOUND', `No pipeline job ${jobId}.`)
      return toView(j)
    },
    waiting: () => queued.length + (pendingImported.size > 0 ? 1 : 0) + handing,
    watch(onEvent) {
      if (active || handing > 0) {
        const initial = hub.latest() ?? { stage: 'entity_extraction' as const, progress: 0, current: 0, total: active?.job.total ?? 0 }
        const stop = hub.subscribe(onEvent)
        return { initial, live: initial.stage !== 'complete', stop }
      }
      const last = latestJob(db)
      return { initial: { stage: 'complete', progress: 100, processed: last?.processed ?? 0, errors: last?.errors ?? 0 }, live: false, stop: () => {} }
    },
    cancel(jobId) {
      const target = jobId ? jobById(db, jobId) : currentRecord()
      if (!target) throw new AppError('NOT_FOUND', jobId ? `No pipeline job ${jobId}.` : 'No pipeline job has run yet.')
      if (active && active.job.id === target.id) {
        setJobStatus(db, target.id, 'cancelling', deps.clock())
        active.abort.abort('cancel')
      } else if (target.status === 'running' || target.status === 'cancelling') {
        setJobStatus(db, target.id, 'cancelled', deps.clock(), { finished: true })
      }
      return toView(jobById(db, target.id)!)
    },
    errors(jobId) {
      if (!jobById(db, jobId)) throw new AppError('NOT_FOUND', `No pipeline job ${jobId}.`)
      return jobErrors(db, jobId).map((e) => ({ ...e, createdAt: iso(e.createdAt)! }))
    },
    async retry(body, userId) {
      const job = body.jobId ? jobById(db, body.jobId) : latestJob(db)
      if (!job) throw new AppError('NOT_FOUND', body.jobId ? `No pipeline job ${body.jobId}.` : 'No pipeline job has run yet.')
      let ids = failedBookmarkIds(db, job.id)
      if (body.bookmarkIds) {
        const want = new Set(body.bookmarkIds)
        ids = ids.filter((i) => want.has(i))
      }
      if (ids.length === 0) throw new AppError('VALIDATION_ERROR', 'That job has no posts with errors to retry.')
      return start({ bookmarkIds: ids, force: true }, userId)
    },
    async onImported(ids) {
      if (closed || ids.length === 0 || !deps.autoRunAfterImport()) return
      if (active) {
        for (const i of ids) pendingImported.add(i)
        return
      }
      await start({ bookmarkIds: ids }, null).catch((e) => log.error('auto-run after import failed', e))
    },
    resume() {
      const jobs = unfinishedJobs(db)
      for (const j of jobs) {
        if (j.status === 'cancelling') setJobStatus(db, j.id, 'cancelled', deps.clock(), { finished: true })
      }
      const next = jobs.filter((j) => j.status === 'running')
      for (const j of next.slice(0, -1)) setJobStatus(db, j.id, 'cancelled', deps.clock(), { finished: true, error: 'superseded by a later job' })
      const last = next.at(-1)
      if (last && !active) {
        log.info(`resuming pipeline job ${last.id}`)
        void launch(last).catch((e) => log.error(`resuming pipeline job ${last.id} failed`, e))
        return
      }
      // Posts analysed before the sentence encoder are analysed again in the background, by the local models.
      const stale = deps.autoRunAfterImport() ? postsAnalysedWithoutVector(db, LOCAL_EMBEDDING_MODEL) : []
      if (stale.length > 0 && !active) {
        log.info(`upgrading the analysis of ${stale.length} posts to the sentence model in the background`)
        void start({ bookmarkIds: stale }, null, { localOnly: true }).catch((e) => log.error('upgrading the analysis failed', e))
      }
    },
    categoriesChanged: () => rescorer.changed(),
    rescoreStatus: () => rescorer.status(),
    async idle() {
      while (active) await active.done
      await rescorer.idle()
    },
    async close() {
      closed = true
      await rescorer.close()
      if (active) {
        active.abort.abort('shutdown')
        await active.done
      }
      await images.close()
    },
  }
}
