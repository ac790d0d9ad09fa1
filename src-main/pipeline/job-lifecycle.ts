import { randomUUID } from 'node:crypto'
import { AppError } from '../../src-shared/errors.ts'
import type { RetryPipelineBody, StartPipelineBody, StartPipelineResult } from '../../src-shared/schemas/pipeline.ts'
import { LOCAL_EMBEDDING_MODEL } from '../ai/index.ts'
import {
  failedBookmarkIds, jobById, latestJob, postsAnalysedWithoutVector, setJobStatus, unfinishedJobs, type JobRecord,
} from '../store/index.ts'
import { waitForWriters } from './context.ts'
import { holdingComplete } from './events.ts'
import { completeJobItems, listDuePosts, writeJob } from './job-creation.ts'
import { launchJob, type LaunchDeps, type Launched } from './job-runner.ts'
import { createRescorer } from './rescore.ts'

export interface LifecycleDeps extends LaunchDeps {
  autoRunAfterImport: () => boolean
  /** A job ended and none follows it: the library's writes are over for now. */
  onJobsEnded?: () => void
}

/**
 * Jobs from creation to their end: starts (serialised, queued behind a running job), cancels, retries,
 * the runs after an import, resuming after a restart, and the hand-over to what waited for a job.
 * One job runs at a time; the re-scoring of categories runs when none does.
 */
export function createJobLifecycle(deps: LifecycleDeps) {
  const { db, log } = deps
  const queue = createRunQueue()
  let active: ({ job: JobRecord } & Launched) | null = null
  let closed = false
  const rescorer = createRescorer({ db, clock: deps.clock, log, busy: () => active !== null })
  const launchDeps: LaunchDeps = { ...deps, hub: holdingComplete(deps.hub, () => queue.followsUp() && !closed) }

  /** Starts a stored job in the background. Resolves once it is running; every later error is recorded on the job. */
  async function launch(job: JobRecord): Promise<void> {
    active = { job, ...launchJob(job, launchDeps, ended) }
  }

  function ended(): void {
    active = null
    rescorer.afterJob()
    const failed = (what: string) => (e: unknown) => {
      log.error(what, e)
      const last = latestJob(db)
      deps.hub.publish({ stage: 'complete', progress: 100, processed: last?.processed ?? 0, errors: last?.errors ?? 0 })
    }
    const followUps = closed ? [] : queue.next()
    if (followUps.length === 0 && !closed) deps.onJobsEnded?.()
    queue.handOver(followUps.map(({ run, failure }) => start(run.body, run.userId, run.opts).catch(failed(failure))))
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
    if (active) return queue.behind(active.job, { body, userId, opts })
    const providerName = opts.localOnly ? 'local' : (await deps.activeProvider().catch(() => null))?.name ?? 'local'
    // An import holds its write transaction across awaits: a job created inside it would roll back with it.
    await waitForWriters(db)
    const raced = active as { job: JobRecord } | null
    if (raced) return queue.behind(raced.job, { body, userId, opts })
    const id = randomUUID()
    const scope = { bookmarkIds: body.bookmarkIds ?? null, force: body.force ?? false, vectorModel: LOCAL_EMBEDDING_MODEL }
    const ids = await listDuePosts(db, scope)
    await writeJob(db, { bookmarkIds: scope.bookmarkIds, force: scope.force, id, provider: providerName, createdBy: userId, now: deps.clock() }, ids)
    const job = jobById(db, id)!
    // Cancelled while its posts were being written (cancel() found it as the latest job): it does not run.
    if (job.status !== 'running') return { jobId: id, status: 'started', totalBookmarks: ids.length }
    deps.hub.publish({ stage: 'entity_extraction', progress: 0, current: 0, total: ids.length })
    await launch(job)
    return { jobId: id, status: 'started', totalBookmarks: ids.length }
  }

  const currentRecord = () => (active ? jobById(db, active.job.id) : latestJob(db))

  return {
    start,
    rescorer,
    /** The running job, or null. */
    running: (): JobRecord | null => active?.job ?? null,
    /** The running job's record, else the last one's. */
    currentRecord,
    handingOver: queue.handingOver,
    waiting: queue.waiting,
    /** Returns the job's record as it is after the cancel. */
    cancel(jobId?: string): JobRecord {
      const target = jobId ? jobById(db, jobId) : currentRecord()
      if (!target) throw new AppError('NOT_FOUND', jobId ? `No pipeline job ${jobId}.` : 'No pipeline job has run yet.')
      if (active && active.job.id === target.id) {
        setJobStatus(db, target.id, 'cancelling', deps.clock())
        active.abort.abort('cancel')
      } else if (target.status === 'running' || target.status === 'cancelling') {
        setJobStatus(db, target.id, 'cancelled', deps.clock(), { finished: true })
      }
      return jobById(db, target.id)!
    },
    async retry(body: RetryPipelineBody, userId: number | null): Promise<StartPipelineResult> {
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
    async onImported(ids: number[]): Promise<void> {
      if (closed || ids.length === 0 || !deps.autoRunAfterImport()) return
      if (active) {
        queue.addImported(ids)
        return
      }
      await start({ bookmarkIds: ids }, null).catch((e) => log.error('auto-run after import failed', e))
    },
    resume(): void {
      const jobs = unfinishedJobs(db)
      for (const j of jobs) {
        if (j.status === 'cancelling') setJobStatus(db, j.id, 'cancelled', deps.clock(), { finished: true })
      }
      const next = jobs.filter((j) => j.status === 'running')
      for (const j of next.slice(0, -1)) setJobStatus(db, j.id, 'cancelled', deps.clock(), { finished: true, error: 'superseded by a later job' })
      const last = next.at(-1)
      if (last && !active) {
        completeJobItems(db, last, LOCAL_EMBEDDING_MODEL)
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
    async idle(): Promise<void> {
      while (active) await active.done
      await rescorer.idle()
    },
    async close(): Promise<void> {
      closed = true
      await rescorer.close()
      if (active) {
        active.abort.abort('shutdown')
        await active.done
      }
      await deps.images.close()
    },
  }
}
export type JobLifecycle = ReturnType<typeof createJobLifecycle>

// The run queue: what waits for the running job.

/** `localOnly`: the job runs on the local models whatever provider is configured (an upgrade). */
export type StartOptions = { localOnly?: boolean }
export interface QueuedRun { body: StartPipelineBody; userId: number | null; opts: StartOptions }
/** A run to start once a job ends, and what to log if it cannot start. */
export interface FollowUp { run: QueuedRun; failure: string }

const requestKey = (body: StartPipelineBody) => JSON.stringify({ f: !!body.force, ids: body.bookmarkIds ?? null })

/**
 * The runs waiting for the running job: starts it does not cover (a forced run, other posts), in order,
 * the posts imported meanwhile, and the hand-overs under way once it ended.
 */
export function createRunQueue() {
  const queued: QueuedRun[] = []
  const pendingImported = new Set<number>()
  let handing = 0
  return {
    /**
     * A start while a job runs: the running job's id when it already covers what was asked (it is not
     * limited to some posts, and either it is forced or the request is not); otherwise the request is
     * queued to run right after it (the same request twice is queued once). Never dropped.
     */
    behind(running: JobRecord, run: QueuedRun): StartPipelineResult {
      const { body } = run
      const base = { jobId: running.id, totalBookmarks: running.total }
      const covered = running.bookmarkIds === null && (running.force || !body.force)
      if (covered) return { ...base, status: 'running' }
      if (!queued.some((q) => requestKey(q.body) === requestKey(body))) queued.push(run)
      const what = body.force ? (body.bookmarkIds ? `Redoing ${body.bookmarkIds.length} posts` : 'Redoing all posts') : 'Your run'
      const which = running.createdBy === null ? 'the automatic run after an import' : 'another run'
      return { ...base, status: 'queued', message: `${what} will start as soon as ${which} (job ${running.id.slice(0, 8)}) finishes.` }
    },
    addImported(ids: number[]): void {
      for (const i of ids) pendingImported.add(i)
    },
    /** Whether a run is to follow the running job. */
    followsUp: () => queued.length > 0 || pendingImported.size > 0,
    /** Takes what is to start now a job has ended: the next queued run, then one run for the posts imported meanwhile. */
    next(): FollowUp[] {
      const runs: FollowUp[] = []
      const next = queued.shift()
      if (next) runs.push({ run: next, failure: 'a queued pipeline run failed to start' })
      if (pendingImported.size > 0) {
        runs.push({ run: { body: { bookmarkIds: [...pendingImported] }, userId: null, opts: {} }, failure: 'auto-run after import failed' })
        pendingImported.clear()
      }
      return runs
    },
    /** Until the next runs exist, the pipeline is handing over: watchers stay on, and it counts as waiting. */
    handOver(starts: Array<Promise<unknown>>): void {
      if (starts.length === 0) return
      handing++
      void Promise.allSettled(starts).then(() => handing--)
    },
    handingOver: () => handing > 0,
    waiting: () => queued.length + (pendingImported.size > 0 ? 1 : 0) + handing,
  }
}
export type RunQueue = ReturnType<typeof createRunQueue>
