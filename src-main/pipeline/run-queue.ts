import type { StartPipelineBody, StartPipelineResult } from '../../src-shared/schemas/pipeline.ts'
import type { JobRecord } from '../store/index.ts'

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
