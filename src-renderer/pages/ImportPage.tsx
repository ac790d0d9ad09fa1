import { useEffect, useRef, useState, type ReactNode } from 'react'
import type { ImportHistoryEntry } from '../../src-shared/schemas/library.ts'
import { fetchImportHistory, type ImportResult } from '../api/import.ts'
import { PageHeader } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { fmtBytes, fmtDate, fmtNumber, noun } from '../lib/format.ts'
import { STAGE_LABELS } from '../lib/stages.ts'
import { NEW_POSTS_URL, useImportsStore, type Upload } from '../stores/imports.ts'
import { usePipelineStore } from '../stores/pipeline.ts'
import { navigate } from '../stores/router.ts'
import { useCan } from '../stores/session.ts'
import { toast } from '../stores/toast.ts'

/** Records passed over are neither posts nor errors: say so, and when they were all the file held. */
function skippedLine(r: ImportResult): string {
  if (r.imported + r.duplicates + r.updated + r.errors === 0) return 'Nothing from this file was added: what it holds is not posts Sheaf keeps.'
  return `Also skipped: ${noun(r.skipped, 'record that is not a post', 'records that are not posts')} Sheaf keeps.`
}

function UploadRow({ u }: { u: Upload }) {
  const [open, setOpen] = useState(false)
  const r = u.result
  return (
    <li className={`upload upload-${u.status}`}>
      <div className="upload-head">
        <Icon name={u.status === 'failed' ? 'alert' : u.status === 'done' ? 'check' : 'upload'} />
        <div className="upload-name">
          <strong>{u.name}</strong>
          <span className="muted">{fmtBytes(u.size)}{r?.format ? ` · ${r.format}` : ''}</span>
        </div>
        <span className="upload-status">
          {u.status === 'queued' && 'Waiting'}
          {u.status === 'uploading' && `Uploading ${Math.round(u.progress * 100)}%`}
          {u.status === 'processing' && 'Reading posts…'}
          {u.status === 'done' && 'Done'}
          {u.status === 'failed' && 'Failed'}
        </span>
      </div>
      {(u.status === 'uploading' || u.status === 'processing') && (
        <progress max={1} value={u.status === 'processing' ? undefined : u.progress} aria-label={`Upload of ${u.name}`} />
      )}
      {u.error && <p className="form-error" role="alert">{u.error}</p>}
      {u.formats && (
        <details className="formats-help">
          <summary>Which files can Sheaf read?</summary>
          <ul>{u.formats.split('; ').map((f) => <li key={f}>{f}</li>)}</ul>
        </details>
      )}
      {r && (
        <>
          <dl className="result-figures">
            <div><dt>Imported</dt><dd>{fmtNumber(r.imported)}</dd></div>
            <div><dt>Duplicates</dt><dd>{fmtNumber(r.duplicates)}</dd></div>
            <div><dt>Updated</dt><dd>{fmtNumber(r.updated)}</dd></div>
            <div className={r.errors ? 'has-errors' : ''}><dt>Errors</dt><dd>{fmtNumber(r.errors)}</dd></div>
          </dl>
          {r.skipped > 0 && <p className="muted upload-skipped">{skippedLine(r)}</p>}
          {r.errorDetails.length > 0 && (
            <div className="error-details">
              <button type="button" className="btn btn-ghost btn-small" aria-expanded={open} onClick={() => setOpen(!open)}>
                <Icon name="chevronDown" size={14} /> {open ? 'Hide' : 'Show'} reasons
              </button>
              {open && (
                <ul className="reasons">
                  {r.errorDetails.map((d) => <li key={d.index}><span className="muted">Record {d.index + 1}{d.postId ? ` (${d.postId})` : ''}:</span> {d.reason}</li>)}
                </ul>
              )}
            </div>
          )}
        </>
      )}
    </li>
  )
}

/**
 * What happens to the new posts: the automatic run after an import (a server setting) is shown as it
 * goes and when it is done; only where none started is the person offered to run the pipeline.
 */
function AfterImport({ added, updated, batchStartedAt }: { added: number; updated: number; batchStartedAt: number }) {
  const canRun = useCan('pipeline:run')
  const { running, job, stage, stages } = usePipelineStore()
  const [loaded, setLoaded] = useState(false)
  useEffect(() => { void usePipelineStore.getState().load().finally(() => setLoaded(true)) }, [batchStartedAt])
  // A run created since this batch began is the automatic one (a few seconds allow for clock skew with the server).
  const auto = !!job && Date.parse(job.createdAt) >= batchStartedAt - 5000
  const runPipeline = async () => {
    try {
      await usePipelineStore.getState().start()
      navigate('/pipeline')
    } catch (e) {
      toast((e as Error).message, 'error')
    }
  }
  const st = stage && stage !== 'complete' ? stages[stage] : null
  let line: ReactNode
  let action: ReactNode = null
  if (!loaded) line = null
  else if (running) {
    line = <>Sheaf is analysing them now{st && stage !== 'complete' ? ` (${STAGE_LABELS[stage!]}, ${fmtNumber(st.current)} of ${fmtNumber(st.total)})` : ''}: categories, tags and summaries appear as it goes.</>
    action = <button type="button" className="btn" onClick={() => navigate('/pipeline')}>Watch progress</button>
  } else if (auto && job) {
    line = job.status === 'completed'
      ? <>Analysed: {fmtNumber(job.processed)} {job.processed === 1 ? 'post' : 'posts'} categorised, tagged and summarised{job.errors ? `, ${fmtNumber(job.errors)} with problems` : ''}.</>
      : <>The analysis stopped ({job.status}).</>
    if (job.status !== 'completed' && canRun) action = <button type="button" className="btn btn-primary" onClick={() => void runPipeline()}><Icon name="play" size={16} /> Run the pipeline</button>
  } else {
    line = canRun ? <>Run the pipeline to categorise, tag and summarise them.</> : <>A member or an admin can run the pipeline to categorise them.</>
    if (canRun) action = <button type="button" className="btn btn-primary" onClick={() => void runPipeline()}><Icon name="play" size={16} /> Run the pipeline</button>
  }
  return (
    <div className="callout" data-after-import>
      <Icon name="sparkles" />
      <div>
        <p role="status"><strong>{[added ? `${fmtNumber(added)} new ${added === 1 ? 'post' : 'posts'}` : '', updated ? `${fmtNumber(updated)} updated` : ''].filter(Boolean).join(', ')}.</strong> {line}</p>
      </div>
      <div className="callout-actions">
        <button type="button" className="btn" onClick={() => navigate(NEW_POSTS_URL)}>{added > 0 ? 'Show the new posts' : 'Open the library'}</button>
        {action}
      </div>
    </div>
  )
}

export function ImportPage() {
  const { uploads, busy, add, clear, batchStartedAt } = useImportsStore()
  const input = useRef<HTMLInputElement>(null)
  const [history, setHistory] = useState<ImportHistoryEntry[] | null>(null)
  const [over, setOver] = useState(false)

  useEffect(() => {
    if (!busy) fetchImportHistory().then((h) => setHistory(h.imports), () => setHistory([]))
  }, [busy])

  const done = uploads.filter((u) => u.status === 'done')
  const added = done.reduce((s, u) => s + (u.result?.imported ?? 0), 0)
  const updated = done.reduce((s, u) => s + (u.result?.updated ?? 0), 0)

  return (
    <div className="import-page">
      <PageHeader title="Import" subtitle="Bring in saved posts from an X archive or a bookmarks export. Files are read on this computer." />
      <div className={`dropzone${over ? ' is-over' : ''}`}
        onDragOver={(e) => { e.preventDefault(); setOver(true) }} onDragLeave={() => setOver(false)} onDrop={() => setOver(false)}>
        <Icon name="upload" size={34} />
        <p className="dropzone-title">Drop export files anywhere in this window</p>
        <p className="muted">X data archive (.zip or tweets.js), bookmark exports in JSON or CSV from the common tools; one or many at once.</p>
        <button type="button" className="btn btn-primary" onClick={() => input.current?.click()}>Choose files…</button>
        <input ref={input} type="file" multiple hidden accept=".json,.js,.csv,.zip,.jsonl,application/json,text/csv,application/zip"
          aria-label="Choose export files" onChange={(e) => { if (e.target.files?.length) add([...e.target.files]); e.target.value = '' }} />
      </div>
      {uploads.length > 0 && (
        <section className="panel" aria-labelledby="h-up">
          <div className="panel-head">
            <h2 id="h-up" className="panel-title">This session</h2>
            {!busy && <button type="button" className="btn btn-ghost btn-small" onClick={clear}>Clear</button>}
          </div>
          <ul className="uploads">{uploads.map((u) => <UploadRow key={u.id} u={u} />)}</ul>
          {!busy && added + updated > 0 && <AfterImport added={added} updated={updated} batchStartedAt={batchStartedAt} />}
        </section>
      )}
      <section className="panel" aria-labelledby="h-hist">
        <h2 id="h-hist" className="panel-title">Import history</h2>
        {history === null ? <p className="muted">Loading…</p> : history.length === 0 ? <p className="muted">No imports yet.</p> : (
          <div className="table-wrap">
            <table className="table">
              <thead><tr><th scope="col">When</th><th scope="col">File</th><th scope="col">Format</th><th scope="col" className="num">Imported</th><th scope="col" className="num">Duplicates</th><th scope="col" className="num">Updated</th><th scope="col" className="num">Errors</th><th scope="col">By</th></tr></thead>
              <tbody>
                {history.map((h) => (
                  <tr key={h.id}>
                    <td>{fmtDate(h.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}</td>
                    <td className="truncate">{h.fileName}</td>
                    <td>{h.format}</td>
                    <td className="num">{fmtNumber(h.imported)}</td>
                    <td className="num">{fmtNumber(h.duplicates)}</td>
                    <td className="num">{fmtNumber(h.updated)}</td>
                    <td className="num">{fmtNumber(h.errors)}</td>
                    <td>{h.user?.name ?? '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  )
}
