import { useEffect, useState, type FormEvent } from 'react'
import { EXPORT_FORMATS, type ExportFormat } from '../../src-shared/schemas/export.ts'
import { downloadExport } from '../api/export.ts'
import { PageHeader } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { fmtBytes, sourceLabel } from '../lib/format.ts'
import { useCategoriesStore } from '../stores/categories.ts'
import { useStatsStore } from '../stores/stats.ts'
import { toast } from '../stores/toast.ts'

const FORMAT_INFO: Record<ExportFormat, { title: string; text: string }> = {
  json: { title: 'JSON', text: 'Everything, including knowledge and notes. Sheaf can import it again.' },
  csv: { title: 'CSV', text: 'One row per post, for spreadsheets.' },
  markdown: { title: 'Markdown', text: 'One note per post, in folders by category (a zip). Good for Obsidian.' },
}

// A stable empty list: a selector returning a fresh [] would re-render forever.
const NO_SOURCES: { source: string; count: number }[] = []

export function ExportPage() {
  const [format, setFormat] = useState<ExportFormat>('json')
  const [category, setCategory] = useState('')
  const [source, setSource] = useState('')
  const [from, setFrom] = useState('')
  const [to, setTo] = useState('')
  const [busy, setBusy] = useState(false)
  const [last, setLast] = useState<string | null>(null)
  const categories = useCategoriesStore((s) => s.categories)
  const sources = useStatsStore((s) => s.stats?.bySource) ?? NO_SOURCES
  useEffect(() => {
    void useCategoriesStore.getState().load()
    void useStatsStore.getState().load()
  }, [])

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    try {
      const r = await downloadExport(format, { category, source, from, to })
      setLast(`${r.name} (${fmtBytes(r.bytes)})`)
      toast(`Downloaded ${r.name}.`, 'success')
    } catch (err) {
      toast((err as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="export-page">
      <PageHeader title="Export" subtitle="Take your library with you, whole or filtered." />
      <form className="panel form export-form" onSubmit={submit}>
        <fieldset className="formats">
          <legend>Format</legend>
          {EXPORT_FORMATS.map((f) => (
            <label key={f} className={`format-card${format === f ? ' is-on' : ''}`}>
              <input type="radio" name="format" value={f} checked={format === f} onChange={() => setFormat(f)} />
              <span className="format-title">{FORMAT_INFO[f].title}</span>
              <span className="format-text">{FORMAT_INFO[f].text}</span>
            </label>
          ))}
        </fieldset>
        <fieldset className="export-filters">
          <legend>Which posts</legend>
          <div className="field-inline">
            <label htmlFor="x-cat">Category</label>
            <select id="x-cat" value={category} onChange={(e) => setCategory(e.target.value)}>
              <option value="">All categories</option>
              {categories.map((c) => <option key={c.slug} value={c.slug}>{c.name}</option>)}
            </select>
          </div>
          <div className="field-inline">
            <label htmlFor="x-src">Source</label>
            <select id="x-src" value={source} onChange={(e) => setSource(e.target.value)}>
              <option value="">All sources</option>
              {sources.map((s) => <option key={s.source} value={s.source}>{sourceLabel(s.source)}</option>)}
            </select>
          </div>
          <div className="field-inline">
            <label htmlFor="x-from">From</label>
            <input id="x-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          </div>
          <div className="field-inline">
            <label htmlFor="x-to">To</label>
            <input id="x-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          </div>
        </fieldset>
        <div className="form-actions">
          {last && <span className="muted" role="status">Last download: {last}</span>}
          <button type="submit" className="btn btn-primary" disabled={busy}><Icon name="download" /> {busy ? 'Preparing…' : 'Download'}</button>
        </div>
      </form>
    </div>
  )
}
