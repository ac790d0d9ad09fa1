import { useEffect, useRef, useState } from 'react'
import type { ImportHistoryEntry } from '../../src-shared/schemas/library.ts'
import { fetchImportHistory } from '../api/import.ts'
import { PageHeader } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { fmtBytes, fmtDate, fmtNumber } from '../lib/format.ts'
import { useImportsStore, type Upload } from '../stores/imports.ts'
import { usePipelineStore } from '../stores/pipeline.ts'
import { navigate } from '../stores/router.ts'
import { useCan } from '../stores/session.ts'
import { toast } from '../stores/toast.ts'

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
      {r && (
        <>
          <dl className="result-figures">
            <div><dt>Imported</dt><dd>{fmtNumber(r.imported)}</dd></div>
            <div><dt>Duplicates</dt><dd>{fmtNumber(r.duplicates)}</dd></div>
            <div><dt>Updated</dt><dd>{fmtNumber(r.updated)}</dd></div>
            <div className={r.errors ? 'has-errors' : ''}><dt>Errors</dt><dd>{fmtNumber(r.errors)}</dd></div>
          </dl>
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

export function ImportPage() {
  const { uploads, busy, add, clear } = useImportsStore()
  const canRun = useCan('pipeline:run')
  const running = usePipelineStore((s) => s.running)
  const input = useRef<HTMLInputElement>(null)
  const [history, setHistory] = useState<ImportHistoryEntry[] | null>(null)
  const [over, setOver] = useState(false)

  useEffect(() => {
    if (!busy) fetchImportHistory().then((h) => setHistory(h.imports), () => setHistory([]))
  }, [busy])

  const done = uploads.filter((u) => u.status === 'done')
  const newPosts = done.reduce((s, u) => s + (u.result?.imported ?? 0) + (u.result?.updated ?? 0), 0)

  const runPipeline = async () => {
    try {
      await usePipelineStore.getState().start()
      navigate('/pipeline')
    } catch (e) {
      toast((e as Error).message, 'error')
    }
  }

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
          {!busy && newPosts > 0 && (
            <div className="callout">
              <Icon name="sparkles" />
              <div>
                <p><strong>{fmtNumber(newPosts)} new or updated posts.</strong> Run the pipeline to categorise, tag and summarise them.</p>
              </div>
              <div className="callout-actions">
                <button type="button" className="btn" onClick={() => navigate('/library')}>Open the library</button>
                {canRun && <button type="button" className="btn btn-primary" disabled={running} onClick={() => void runPipeline()}><Icon name="play" size={16} /> Run the pipeline</button>}
              </div>
            </div>
          )}
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
