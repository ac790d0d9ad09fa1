import { describe, expect, it } from 'vitest'
import { JOB_SLICE } from '../../src-main/pipeline/job-creation.ts'
import { createJobLifecycle } from '../../src-main/pipeline/job-lifecycle.ts'
import { addJobItems, countJobItems, countJobItemsAtLeast, insertJob, insertJobRow, jobById, latestJob, setJobStatus } from '../../src-main/store/index.ts'
import { waitFor } from './helpers.ts'
import { pipelineUnit } from './unit-deps.ts'

const lifecycle = (posts: number) => {
  const unit = pipelineUnit(posts)
  const jobs = createJobLifecycle({ ...unit.deps, autoRunAfterImport: () => true })
  let closed = false
  const stop = async () => {
    if (!closed) await jobs.close()
    closed = true
  }
  const close = async () => {
    await stop()
    unit.lib.close()
  }
  /** Resolves once no job runs and none waits (the runs a job hands over to included). */
  const settled = () => waitFor(() => !jobs.running() && jobs.waiting() === 0)
  return { ...unit, jobs, stop, close, settled }
}

/** What `look` sees at every turn of the event loop (null: nothing to see yet), until stop(). */
const everyTurn = (look: () => number | null) => {
  const seen: number[] = []
  let watching = true
  const watch = () => {
    if (!watching) return
    const n = look()
    if (n !== null) seen.push(n)
    setImmediate(watch)
  }
  setImmediate(watch)
  return { stop: () => ((watching = false), seen) }
}

describe('job lifecycle', () => {
  it('starts a job, answers a covered start with it, runs a forced start after it, and is idle after both', async () => {
    const { lib, ids, jobs, close, settled } = lifecycle(3)
    try {
      const first = await jobs.start({}, 1)
      expect(first).toMatchObject({ status: 'started', totalBookmarks: 3 })
      expect(jobs.running()?.id).toBe(first.jobId)
      expect(await jobs.start({}, 2)).toEqual({ jobId: first.jobId, status: 'running', totalBookmarks: 3 })
      expect(await jobs.start({ force: true, bookmarkIds: [ids[0]] }, 2)).toMatchObject({ jobId: first.jobId, status: 'queued' })
      expect(jobs.waiting()).toBe(1)
      await settled()
      expect(jobById(lib.db, first.jobId)).toMatchObject({ status: 'completed', processed: 3 })
      expect(latestJob(lib.db)).toMatchObject({ status: 'completed', force: true, bookmarkIds: [ids[0]], total: 1, createdBy: 2 })
    } finally {
      await close()
    }
  })

  it('says the writes are over once, when a job ends and none follows it', async () => {
    const unit = pipelineUnit(2)
    const ended: Array<{ running: boolean; waiting: number }> = []
    const jobs = createJobLifecycle({ ...unit.deps, autoRunAfterImport: () => true, onJobsEnded: () => ended.push({ running: !!jobs.running(), waiting: jobs.waiting() }) })
    try {
      await jobs.start({}, 1)
      expect(await jobs.start({ force: true, bookmarkIds: [unit.ids[0]] }, 1)).toMatchObject({ status: 'queued' })
      await waitFor(() => !jobs.running() && jobs.waiting() === 0)
      expect(latestJob(unit.lib.db)).toMatchObject({ status: 'completed', force: true })
      expect(ended).toEqual([{ running: false, waiting: 0 }])
    } finally {
      await jobs.close()
      unit.lib.close()
    }
  })

  it('cancels a job a restart left running without running it, and says when there is no such job', async () => {
    const { lib, ids, jobs, close } = lifecycle(1)
    try {
      expect(() => jobs.cancel()).toThrow('No pipeline job has run yet.')
      expect(() => jobs.cancel('nope')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }))
      insertJob(lib.db, { id: 'left', force: false, bookmarkIds: null, provider: 'local', createdBy: 1, now: 1, items: ids })
      expect(jobs.cancel('left')).toMatchObject({ id: 'left', status: 'cancelled' })
      await expect(jobs.retry({ jobId: 'left' }, 1)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' })
    } finally {
      await close()
    }
  })

  it('resumes the last job a restart interrupted and closes the others', async () => {
    const { lib, ids, jobs, close } = lifecycle(2)
    try {
      insertJob(lib.db, { id: 'older', force: false, bookmarkIds: null, provider: 'local', createdBy: 1, now: 1, items: ids })
      insertJob(lib.db, { id: 'stopping', force: false, bookmarkIds: null, provider: 'local', createdBy: 1, now: 2, items: ids })
      setJobStatus(lib.db, 'stopping', 'cancelling', 2)
      insertJob(lib.db, { id: 'newest', force: false, bookmarkIds: null, provider: 'local', createdBy: 1, now: 3, items: ids })
      jobs.resume()
      expect(jobs.running()?.id).toBe('newest')
      await jobs.idle()
      expect(jobById(lib.db, 'older')).toMatchObject({ status: 'cancelled', error: 'superseded by a later job' })
      expect(jobById(lib.db, 'stopping')).toMatchObject({ status: 'cancelled' })
      expect(jobById(lib.db, 'newest')).toMatchObject({ status: 'completed', processed: 2 })
    } finally {
      await close()
    }
  })

  it('runs posts imported during a job right after it, and refuses starts once closing', async () => {
    const { lib, ids, jobs, stop, close, settled } = lifecycle(3)
    try {
      const first = await jobs.start({ bookmarkIds: [ids[0]] }, 1)
      await jobs.onImported([ids[1], ids[2]])
      expect(jobs.waiting()).toBe(1)
      await settled()
      const after = latestJob(lib.db)!
      expect(after.id).not.toBe(first.jobId)
      expect(after).toMatchObject({ status: 'completed', bookmarkIds: [ids[1], ids[2]], createdBy: null })
      await stop()
      await expect(jobs.start({}, 1)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' })
    } finally {
      await close()
    }
  })

  it('writes a large job a slice at a time, answering other work between the slices, and covers every post', async () => {
    const posts = JOB_SLICE * 2 + 10
    const { lib, jobs, close } = lifecycle(posts)
    try {
      // What a request arriving meanwhile would see: the event loop turns while the job is written.
      const watch = everyTurn(() => {
        const job = latestJob(lib.db)
        return job ? countJobItems(lib.db, job.id) : null
      })
      const started = await jobs.start({}, 1)
      const seen = watch.stop()
      expect(started).toMatchObject({ status: 'started', totalBookmarks: posts })
      expect(countJobItems(lib.db, started.jobId)).toBe(posts)
      // Before: the job's row and its items were one transaction, seen whole or not at all.
      expect(seen.some((n) => n > 0 && n < posts)).toBe(true)
    } finally {
      await close()
    }
  })

  it('writes the rest of a job a restart stopped while its posts were written, then resumes it', async () => {
    const { lib, ids, jobs, close } = lifecycle(3)
    try {
      insertJobRow(lib.db, { id: 'half', force: false, bookmarkIds: null, provider: 'local', createdBy: 1, now: 1, total: 3 })
      addJobItems(lib.db, 'half', ids.slice(0, 1))
      jobs.resume()
      expect(jobs.running()?.id).toBe('half')
      await jobs.idle()
      expect(jobById(lib.db, 'half')).toMatchObject({ status: 'completed', processed: 3 })
    } finally {
      await close()
    }
  })

  it('writes a batch of semantic tagging in parts, answering other work between them', async () => {
    const posts = 200 // one batch of the stage
    const { lib, jobs, close, settled } = lifecycle(posts)
    try {
      const watch = everyTurn(() => {
        const job = latestJob(lib.db)
        return job ? countJobItemsAtLeast(lib.db, job.id, 3) : null
      })
      const started = await jobs.start({}, 1)
      await settled()
      const tagged = watch.stop()
      expect(jobById(lib.db, started.jobId)).toMatchObject({ status: 'completed', processed: posts })
      // Before: the batch's 200 posts were written in one transaction, tagged all at once.
      expect(tagged.some((n) => n > 0 && n < posts)).toBe(true)
    } finally {
      await close()
    }
  })
})
