import { useEffect } from 'react'
import { PIPELINE_STAGES } from '../../src-shared/schemas/pipeline.ts'
import { fmtNumber, fmtRelative, noun } from '../lib/format.ts'
import { STAGE_LABELS } from '../lib/stages.ts'
import { usePipelineStore } from '../stores/pipeline.ts'
import { navigate } from '../stores/router.ts'
import { useCan } from '../stores/session.ts'
import { Icon } from './Icon.tsx'

/** What the pipeline is doing now, or did last, in two lines and a button. */
export function PipelineSummary({ uncategorized }: { uncategorized: number }) {
  const { job, running, stage, stages, status, load } = usePipelineStore()
  const canRun = useCan('pipeline:run')
  useEffect(() => { if (status === 'idle') void load() }, [status, load])
  if (status === 'unavailable') return <p className="muted">The pipeline is not available on this server yet.</p>
  if (running) {
    const s = stage && stage !== 'complete' ? stages[stage] : null
    const idx = stage && stage !== 'complete' ? PIPELINE_STAGES.indexOf(stage) + 1 : 0
    return (
      <div className="pipe-summary">
        <p><span className="live-dot" aria-hidden="true" /> Running: {stage && stage !== 'complete' ? `${STAGE_LABELS[stage]} (${idx} of 4)` : 'starting'}</p>
        {s && <progress max={100} value={s.progress} aria-label="Stage progress" />}
        {s && <p className="muted">{fmtNumber(s.current)} of {fmtNumber(s.total)}</p>}
        <button type="button" className="btn btn-small" onClick={() => navigate('/pipeline')}>Watch progress</button>
      </div>
    )
  }
  return (
    <div className="pipe-summary">
      {job ? (
        <p>Last run {fmtRelative(job.finishedAt ?? job.createdAt)}: <strong>{job.status}</strong>, {noun(job.processed, 'post', 'posts')}{job.errors ? `, ${noun(job.errors, 'error', 'errors')}` : ''}.</p>
      ) : <p>The pipeline has not run yet.</p>}
      <p className="muted">{fmtNumber(uncategorized)} posts wait for categories.</p>
      {canRun && <button type="button" className="btn btn-small btn-primary" onClick={() => navigate('/pipeline')}><Icon name="play" size={14} /> Open the pipeline</button>}
    </div>
  )
}
