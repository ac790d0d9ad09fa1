import { describe, expect, it } from 'vitest'
import type { PipelineEvent } from '../../src-shared/schemas/pipeline.ts'
import { launchJob } from '../../src-main/pipeline/job-runner.ts'
import { createEncoderEmbedder } from '../../src-main/search/embedder.ts'
import { createSearch } from '../../src-main/search/index.ts'
import { insertJob, jobById, jobErrors, knowledgeForBookmarks } from '../../src-main/store/index.ts'
import type { VectorLender } from '../../src-main/pipeline/context.ts'
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

  it('borrows search’s rows of the sentence vectors for related posts, and gives them back when the job ends', async () => {
    const { lib, ids, deps } = pipelineUnit(4)
    const search = createSearch({ db: lib.db, encoder: createEncoderEmbedder() })
    try {
      const loans: Array<{ given: boolean }> = []
      const vectors: VectorLender = async (model) => {
        const index = await search.vectorsOf(model)
        return index && {
          lend: (lentIds) => {
            const loan = index.lend(lentIds)
            const seen = { given: false }
            loans.push(seen)
            return { lent: loan.lent, giveBack: () => { seen.given = true; loan.giveBack() } }
          },
        }
      }
      insertJob(lib.db, { id: 'job-v', force: false, bookmarkIds: null, provider: 'local', createdBy: 1, now: 1, items: ids })
      await launchJob(jobById(lib.db, 'job-v')!, { ...deps, vectors }, () => {}).done
      expect(jobById(lib.db, 'job-v')).toMatchObject({ status: 'completed', processed: 4 })
      expect(loans).toEqual([{ given: true }])
      // Related posts were found through the lent rows: every post has some (the four read alike).
      expect(knowledgeForBookmarks(lib.db, ids).every((k) => JSON.parse(k.relatedIds ?? '[]').length > 0)).toBe(true)
    } finally {
      await search.close()
      await deps.images.close()
      lib.close()
    }
  }, 60_000)

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
