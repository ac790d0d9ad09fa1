import type { PipelineEvent, PipelineJob } from '../../src-shared/schemas/pipeline.ts'
import type { JobRecord } from '../store/index.ts'

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
