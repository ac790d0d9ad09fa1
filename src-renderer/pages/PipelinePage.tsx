import { useEffect, useState } from 'react'
import { PIPELINE_STAGES, type PipelineJobError } from '../../src-shared/schemas/pipeline.ts'
import { fetchJobErrors, retryErrors } from '../api/pipeline.ts'
import { EmptyState, PageHeader } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { Link } from '../components/Link.tsx'
import { fmtDate, fmtDuration, fmtNumber, fmtRelative, noun } from '../lib/format.ts'
import { STAGE_HINTS, STAGE_LABELS } from '../lib/stages.ts'
import { stageRate, usePipelineStore } from '../stores/pipeline.ts'
import { useCan } from '../stores/session.ts'
import { toast } from '../stores/toast.ts'


/** One post can have several problems (one per image): say both counts when they differ. */
function problemsTitle(errors: PipelineJobError[]): string {
  const posts = new Set(errors.map((e) => e.bookmarkId ?? `job:${e.id}`)).size
  return posts === errors.length ? `${noun(posts, 'post', 'posts')} had problems`
    : `${noun(errors.length, 'problem', 'problems')} in ${noun(posts, 'post', 'posts')}`
}

/** An image that could not be fetched because the image host could not be reached at all (no network). */
const isOfflineImageError = (e: PipelineJobError): boolean =>
  e.stage === 'vision_analysis' && /ENOTFOUND|EAI_AGAIN|ENETUNREACH|ECONNREFUSED|could not be reached a moment ago/.test(e.message)

function ErrorRow({ e, busy, canRun, retry }: { e: PipelineJobError; busy: boolean; canRun: boolean; retry: (ids?: number[]) => void }) {
  return (
    <li>
      <div>
        <p className="error-msg">{e.message}</p>
        <p className="muted">{STAGE_LABELS[e.stage as keyof typeof STAGE_LABELS] ?? e.stage}{e.fellBack ? ' · the local model did this step instead' : ''} · {fmtRelative(e.createdAt)}
          {e.bookmarkId && <> · <Link to={`/post/${e.bookmarkId}`}>open post</Link></>}</p>
      </div>
      {canRun && e.bookmarkId && <button type="button" className="btn btn-small btn-ghost" disabled={busy} onClick={() => retry([e.bookmarkId!])} aria-label={`Retry post ${e.bookmarkId}`}>Retry</button>}
    </li>
  )
}

function Errors({ jobId, onRetried }: { jobId: string; onRetried: () => void }) {
  const [errors, setErrors] = useState<PipelineJobError[] | null>(null)
  const [busy, setBusy] = useState(false)
  const canRun = useCan('pipeline:run')
  useEffect(() => {
    fetchJobErrors(jobId).then((r) => setErrors(r.errors), () => setErrors([]))
  }, [jobId])
  if (!errors || errors.length === 0) return null
  const retry = async (ids?: number[]) => {
    setBusy(true)
    try {
      await retryErrors({ jobId, bookmarkIds: ids })
      const n = ids ? ids.length : new Set(errors.flatMap((e) => (e.bookmarkId ? [e.bookmarkId] : []))).size
      toast(n === 1 ? 'Retrying that post.' : `Retrying ${fmtNumber(n)} posts.`, 'info')
      onRetried()
    } catch (e) {
      toast((e as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }
  // Offline, every image fails the same way: one calm line and a retry; each failure stays in the details.
  const offline = errors.filter(isOfflineImageError)
  const rest = errors.filter((e) => !isOfflineImageError(e))
  const offlinePosts = [...new Set(offline.flatMap((e) => (e.bookmarkId ? [e.bookmarkId] : [])))]
  return (
    <>
      {offline.length > 0 && (
        <section className="panel offline-media" aria-labelledby="h-offline">
          <div className="panel-head">
            <h2 id="h-offline" className="panel-title"><Icon name="image" size={16} /> Images could not be fetched: offline.</h2>
            {canRun && <button type="button" className="btn btn-small" disabled={busy} onClick={() => void retry(offlinePosts)}><Icon name="refresh" size={14} /> Try again</button>}
          </div>
          <p className="muted">The image hosts could not be reached from this computer. Everything else was analysed; try again once it is online.</p>
          <details>
            <summary>Details: {noun(offline.length, 'image', 'images')} in {noun(offlinePosts.length, 'post', 'posts')}</summary>
            <ul className="error-list">{offline.map((e) => <ErrorRow key={e.id} e={e} busy={busy} canRun={canRun} retry={(ids) => void retry(ids)} />)}</ul>
          </details>
        </section>
      )}
      {rest.length > 0 && (
        <section className="panel" aria-labelledby="h-errs">
          <div className="panel-head">
            <h2 id="h-errs" className="panel-title"><Icon name="alert" size={16} /> {problemsTitle(rest)}</h2>
            {canRun && <button type="button" className="btn btn-small" disabled={busy} onClick={() => void retry(rest.some((e) => !e.bookmarkId) ? undefined : [...new Set(rest.map((e) => e.bookmarkId!))])}><Icon name="refresh" size={14} /> Retry all</button>}
          </div>
          <ul className="error-list">{rest.map((e) => <ErrorRow key={e.id} e={e} busy={busy} canRun={canRun} retry={(ids) => void retry(ids)} />)}</ul>
        </section>
      )}
    </>
  )
}

/** A run with nothing to do says so, and how to analyse everything again. */
function finishedLine(r: { processed: number; errors: number }, total: number | null): string {
  if (total === 0) return 'Finished: every post was already up to date. Tick “Redo all posts” to analyse them all again.'
  return `Finished: ${noun(r.processed, 'post', 'posts')} processed${r.errors > 0 ? `, ${noun(r.errors, 'post', 'posts')} with problems` : ''}.`
}

export function PipelinePage() {
  const p = usePipelineStore()
  const load = usePipelineStore((s) => s.load)
  const canRun = useCan('pipeline:run')
  const [force, setForce] = useState(false)
  const [starting, setStarting] = useState(false)
  useEffect(() => { void load() }, [load])

  const start = async () => {
    setStarting(true)
    try {
      await p.start({ force })
      // "Redo all" is for this run: left ticked, the next click would redo (and, with a paid provider, pay for) everything again
      setForce(false)
    } catch (e) {
      toast((e as Error).message, 'error')
    } finally {
      setStarting(false)
    }
  }

  if (p.status === 'unavailable') {
    return (
      <>
        <PageHeader title="Pipeline" />
        <EmptyState icon="pipeline" title="The pipeline is not available">This server does not offer the classification pipeline yet.</EmptyState>
      </>
    )
  }

  const job = p.job
  const activeIdx = p.stage && p.stage !== 'complete' ? PIPELINE_STAGES.indexOf(p.stage) : -1
  return (
    <div className="pipeline-page">
      <PageHeader title="Pipeline"
        subtitle="Reads every post on this computer: finds entities, looks at images, tags topics, then files posts into categories."
        actions={canRun && (p.running
          ? <button type="button" className="btn btn-danger" onClick={() => void p.cancel().catch((e: Error) => toast(e.message, 'error'))}><Icon name="stop" /> Cancel</button>
          : (
            <div className="run-controls">
              <label className="check" title="Analyse again even posts that are up to date">
                <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Redo all posts
              </label>
              <button type="button" className="btn btn-primary" disabled={starting} onClick={() => void start()}><Icon name="play" /> {starting ? 'Starting…' : 'Run pipeline'}</button>
            </div>
          ))} />
      <div className="live-line" role="status" aria-live="polite">
        {p.running
          ? <><span className="live-dot" aria-hidden="true" /> {p.connected ? 'Live' : 'Connecting…'}{activeIdx >= 0 && ` · stage ${activeIdx + 1} of 4: ${STAGE_LABELS[PIPELINE_STAGES[activeIdx]]}`}</>
          : p.result ? finishedLine(p.result, job?.totalBookmarks ?? null)
            : job ? <>Last run {fmtRelative(job.finishedAt ?? job.createdAt)} ({job.status}){job.error ? `: ${job.error}` : ''}.</> : <>Not run yet.</>}
      </div>
      <ol className="stages">
        {PIPELINE_STAGES.map((s, i) => {
          const st = p.stages[s]
          const { perSecond, secondsLeft } = stageRate(st)
          const state = st.done ? 'done' : i === activeIdx ? 'active' : 'waiting'
          return (
            <li key={s} className={`stage stage-${state}`} aria-label={`${STAGE_LABELS[s]}: ${state}`}>
              <div className="stage-head">
                <span className="stage-num" aria-hidden="true">{st.done ? <Icon name="check" size={14} /> : i + 1}</span>
                <div>
                  <h2 className="stage-title">{STAGE_LABELS[s]}</h2>
                  <p className="muted stage-hint">{STAGE_HINTS[s]}</p>
                </div>
                <span className="stage-pct">{Math.round(st.progress)}%</span>
              </div>
              <progress max={100} value={st.progress} aria-label={`${STAGE_LABELS[s]} progress`} />
              <dl className="stage-stats">
                <div><dt>Done</dt><dd>{fmtNumber(st.current)} / {fmtNumber(st.total)}</dd></div>
                <div><dt>Rate</dt><dd>{perSecond ? `${perSecond.toFixed(perSecond < 10 ? 1 : 0)}/s` : '–'}</dd></div>
                <div><dt>Time left</dt><dd>{state === 'active' ? fmtDuration(secondsLeft) : '–'}</dd></div>
              </dl>
            </li>
          )
        })}
      </ol>
      {job && (
        <section className="panel" aria-labelledby="h-job">
          <h2 id="h-job" className="panel-title">Last job</h2>
          <dl className="kv kv-inline">
            <div><dt>Status</dt><dd>{job.status}</dd></div>
            <div><dt>Started</dt><dd>{fmtDate(job.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}</dd></div>
            <div><dt>Posts</dt><dd>{fmtNumber(job.totalBookmarks)}</dd></div>
            <div><dt>Processed</dt><dd>{fmtNumber(job.processed)}</dd></div>
            <div><dt>Errors</dt><dd>{fmtNumber(job.errors)}</dd></div>
            <div><dt>Provider</dt><dd>{job.provider ?? 'local'}</dd></div>
            {job.costUsd > 0 && <div><dt>Cost</dt><dd>${job.costUsd.toFixed(3)}</dd></div>}
          </dl>
        </section>
      )}
      {job && !p.running && job.errors > 0 && <Errors jobId={job.jobId} onRetried={() => { usePipelineStore.setState({ running: true, result: null }); p.connect() }} />}
    </div>
  )
}
