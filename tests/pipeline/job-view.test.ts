import { describe, expect, it } from 'vitest'
import { jobView } from '../../src-main/pipeline/index.ts'
import { insertJob, jobById, setJobStatus, updateJobProgress } from '../../src-main/store/index.ts'
import { searchDb } from '../search/search-db.ts'

describe('job view', () => {
  it('shows a running job’s progress from its stored stage, or from the latest event when it is the one running', () => {
    const lib = searchDb()
    try {
      const ids = [lib.add('one'), lib.add('two'), lib.add('three'), lib.add('four')]
      insertJob(lib.db, { id: 'job-a', force: false, bookmarkIds: null, provider: 'local', createdBy: null, now: Date.UTC(2025, 0, 1), items: ids })
      updateJobProgress(lib.db, 'job-a', { stage: 'vision_analysis', current: 2, total: 4, now: Date.UTC(2025, 0, 1) })
      const stored = jobView(jobById(lib.db, 'job-a')!, null)
      expect(stored).toMatchObject({ jobId: 'job-a', status: 'running', stage: 'vision_analysis', progress: 37.5, current: 2, total: 4, totalBookmarks: 4, finishedAt: null })
      expect(stored.createdAt).toBe('2025-01-01T00:00:00.000Z')
      const live = jobView(jobById(lib.db, 'job-a')!, { stage: 'semantic_tagging', progress: 61.2, current: 1, total: 4 })
      expect(live.progress).toBe(61.2)
    } finally {
      lib.close()
    }
  })

  it('shows a completed job at 100 in the complete stage', () => {
    const lib = searchDb()
    try {
      insertJob(lib.db, { id: 'job-b', force: true, bookmarkIds: [lib.add('one')], provider: 'local', createdBy: null, now: 1000, items: [] })
      setJobStatus(lib.db, 'job-b', 'completed', 2000, { finished: true, processed: 1, errors: 0 })
      expect(jobView(jobById(lib.db, 'job-b')!, null)).toMatchObject({ status: 'completed', stage: 'complete', progress: 100, processed: 1, force: true, finishedAt: new Date(2000).toISOString() })
    } finally {
      lib.close()
    }
  })
})
