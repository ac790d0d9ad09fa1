import { describe, expect, it } from 'vitest'
import { createRunQueue } from '../../src-main/pipeline/job-lifecycle.ts'
import { insertJob, jobById, type JobRecord } from '../../src-main/store/index.ts'
import { searchDb } from '../search/search-db.ts'
import { addPeople } from './unit-deps.ts'

const withJob = (shape: { force: boolean; bookmarkIds: number[] | null; createdBy: number | null }, test: (job: JobRecord) => void | Promise<void>) => async () => {
  const lib = searchDb()
  try {
    const items = [lib.add('one'), lib.add('two')]
    const [person] = addPeople(lib.db)
    insertJob(lib.db, { id: '0123456789abcdef', provider: 'local', now: 1, items, ...shape, createdBy: shape.createdBy && person })
    await test(jobById(lib.db, '0123456789abcdef')!)
  } finally {
    lib.close()
  }
}

describe('run queue', () => {
  it('answers a start the running job covers with that job, and queues nothing', withJob({ force: false, bookmarkIds: null, createdBy: 1 }, (job) => {
    const queue = createRunQueue()
    expect(queue.behind(job, { body: {}, userId: 2, opts: {} })).toEqual({ jobId: job.id, totalBookmarks: 2, status: 'running' })
    expect(queue.waiting()).toBe(0)
    expect(queue.followsUp()).toBe(false)
  }))

  it('queues a forced run behind an unforced one once, and says after which run it starts', withJob({ force: false, bookmarkIds: null, createdBy: null }, (job) => {
    const queue = createRunQueue()
    const first = queue.behind(job, { body: { force: true }, userId: 2, opts: {} })
    expect(first).toEqual({ jobId: job.id, totalBookmarks: 2, status: 'queued', message: 'Redoing all posts will start as soon as the automatic run after an import (job 01234567) finishes.' })
    queue.behind(job, { body: { force: true }, userId: 3, opts: {} })
    expect(queue.waiting()).toBe(1)
    expect(queue.followsUp()).toBe(true)
  }))

  it('follows a job with the queued runs in order, then one run for the posts imported meanwhile', withJob({ force: false, bookmarkIds: [1], createdBy: 1 }, (job) => {
    const queue = createRunQueue()
    expect(queue.behind(job, { body: { bookmarkIds: [2] }, userId: 1, opts: {} })).toMatchObject({ status: 'queued', message: 'Your run will start as soon as another run (job 01234567) finishes.' })
    queue.behind(job, { body: { bookmarkIds: [3], force: true }, userId: 1, opts: {} })
    queue.addImported([7, 8])
    queue.addImported([8, 9])
    expect(queue.waiting()).toBe(3)
    expect(queue.next()).toEqual([
      { run: { body: { bookmarkIds: [2] }, userId: 1, opts: {} }, failure: 'a queued pipeline run failed to start' },
      { run: { body: { bookmarkIds: [7, 8, 9] }, userId: null, opts: {} }, failure: 'auto-run after import failed' },
    ])
    expect(queue.next().map((f) => f.run.body)).toEqual([{ bookmarkIds: [3], force: true }])
    expect(queue.next()).toEqual([])
    expect(queue.followsUp()).toBe(false)
  }))

  it('counts a hand-over as waiting until the runs it starts exist', async () => {
    const queue = createRunQueue()
    let started!: () => void
    queue.handOver([new Promise<void>((r) => (started = r))])
    expect(queue.handingOver()).toBe(true)
    expect(queue.waiting()).toBe(1)
    started()
    await new Promise((r) => setTimeout(r, 0))
    expect(queue.handingOver()).toBe(false)
    expect(queue.waiting()).toBe(0)
    queue.handOver([])
    expect(queue.handingOver()).toBe(false)
  })
})
