import { AppError } from '../../src-shared/errors.ts'
import type { PipelineEvent, PipelineJob, PipelineJobError, RetryPipelineBody, StartPipelineBody, StartPipelineResult } from '../../src-shared/schemas/pipeline.ts'
import type { AiProvider } from '../ai/index.ts'
import type { Logger } from '../app/logger.ts'
import type { MediaCache } from '../media/index.ts'
import { jobById, jobErrors, latestJob, type Db, type JobRecord } from '../store/index.ts'
import { createImageTools, type ImageTools, type VectorLender } from './context.ts'
import { createEventHub, watchHub } from './events.ts'
import { createJobLifecycle, type JobLifecycle } from './job-lifecycle.ts'

export { createImageTools, type ImageTools } from './context.ts'
/** What the re-scoring of categories reports (rescore.ts); the job lifecycle runs it. */
export type RescoreStatus = ReturnType<JobLifecycle['rescorer']['status']>

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
  /** A job ended and none follows it (search merges its word index then). */
  onJobsEnded?: () => void
  /** Search's vectors, lent to stage 4 (absent: it reads its own). */
  vectors?: VectorLender
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

/** Composes the pipeline from its units: the job lifecycle (which runs the stages) and the event hub watchers read. */
export function createPipeline(deps: PipelineDeps): Pipeline {
  const { db } = deps
  const hub = createEventHub()
  const jobs = createJobLifecycle({ ...deps, hub, images: deps.images ?? createImageTools() })
  const toView = (j: JobRecord): PipelineJob => jobView(j, jobs.running()?.id === j.id ? hub.latest() : null)

  return {
    start: (body, userId) => jobs.start(body, userId),
    current: () => {
      const j = jobs.currentRecord()
      return j ? toView(j) : null
    },
    job(jobId) {
      const j = jobById(db, jobId)
      if (!j) throw new AppError('NOT_FOUND', `No pipeline job ${jobId}.`)
      return toView(j)
    },
    waiting: jobs.waiting,
    watch(onEvent) {
      const running = jobs.running()
      const live = running ?? (jobs.handingOver() ? { total: 0 } : null)
      return watchHub(hub, live, () => latestJob(db), onEvent)
    },
    cancel: (jobId) => toView(jobs.cancel(jobId)),
    errors(jobId) {
      if (!jobById(db, jobId)) throw new AppError('NOT_FOUND', `No pipeline job ${jobId}.`)
      return jobErrors(db, jobId).map((e) => ({ ...e, createdAt: iso(e.createdAt)! }))
    },
    retry: (body, userId) => jobs.retry(body, userId),
    onImported: (ids) => jobs.onImported(ids),
    categoriesChanged: () => jobs.rescorer.changed(),
    rescoreStatus: () => jobs.rescorer.status(),
    resume: () => jobs.resume(),
    idle: () => jobs.idle(),
    close: () => jobs.close(),
  }
}

// The API's view of a stored job.

export const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString())

/** A stored job as the API shows it; `latest` is the hub's last event when this job is the one running. */
export function jobView(j: JobRecord, latest: PipelineEvent | null): PipelineJob {
  const running = j.status === 'running' || j.status === 'cancelling'
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
