import { describe, expect, it } from 'vitest'
import type { PipelineEvent } from '../../src-shared/schemas/pipeline.ts'
import { launchJob } from '../../src-main/pipeline/job-runner.ts'
import { insertJob, jobById, jobErrors } from '../../src-main/store/index.ts'
import { pipelineUnit } from './unit-deps.ts'

describe('launching a job', () => {
  it('runs every stage with the local models when the configured provider cannot be built, says so on the job, and ends once', async () => {
    const { lib, ids, hub, deps } = pipelineUnit(3)
    try {
      insertJob(lib.db, { id: 'job-1', force: false, bookmarkIds: null, provider: 'openai', createdBy: 1, now: 1, items: ids })
      const events: PipelineEvent[] = []
      hub.subscribe((ev) => events.push(ev))
      let ended = 0
      const run = launchJob(jobById(lib.db, 'job-1')!, { ...deps, activeProvider: () => Promise.reject(new Error('no key')) }, () => ended++)
      await run.done
      expect(ended).toBe(1)
      expect(jobById(lib.db, 'job-1')).toMatchObject({ status: 'completed', processed: 3 })
      expect(jobErrors(lib.db, 'job-1')).toEqual([
        expect.objectContaining({ bookmarkId: null, stage: 'semantic_tagging', fellBack: true, message: 'the configured provider cannot be used (no key); the local models did the work' }),
      ])
      expect(new Set(events.map((e) => e.stage))).toEqual(new Set(['entity_extraction', 'vision_analysis', 'semantic_tagging', 'categorization', 'complete']))
      expect(events.at(-1)).toEqual({ stage: 'complete', progress: 100, processed: 3, errors: 0 })
    } finally {
      await deps.images.close()
      lib.close()
    }
  })

  it('leaves a job stopped for a shutdown resumable, and one stopped by a cancel cancelled', async () => {
    const { lib, ids, deps } = pipelineUnit(2)
    try {
      insertJob(lib.db, { id: 'job-s', force: false, bookmarkIds: null, provider: 'local', createdBy: 1, now: 1, items: ids })
      const shut = launchJob(jobById(lib.db, 'job-s')!, deps, () => {})
      shut.abort.abort('shutdown')
      await shut.done
      expect(jobById(lib.db, 'job-s')).toMatchObject({ status: 'running', finishedAt: null })

      insertJob(lib.db, { id: 'job-c', force: false, bookmarkIds: null, provider: 'local', createdBy: 1, now: 2, items: ids })
      const cancelled = launchJob(jobById(lib.db, 'job-c')!, deps, () => {})
      cancelled.abort.abort('cancel')
      await cancelled.done
      expect(jobById(lib.db, 'job-c')).toMatchObject({ status: 'cancelled' })
    } finally {
      await deps.images.close()
      lib.close()
    }
  })
})
