import { useEffect, useState } from 'react'
import { can } from '../../src-shared/roles.ts'
import type { ImportHistoryEntry } from '../../src-shared/schemas/library.ts'
import { fetchImportHistory } from '../api/import.ts'
import { BarList, Donut, TimeChart } from '../components/Charts.tsx'
import { EmptyState, ErrorState, Loading, PageHeader } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { Link } from '../components/Link.tsx'
import { PipelineSummary } from '../components/PipelineSummary.tsx'
import { fmtDate, fmtNumber, fmtRelative, sourceLabel } from '../lib/format.ts'
import { useCategoriesStore } from '../stores/categories.ts'
import { navigate } from '../stores/router.ts'
import { useSessionStore } from '../stores/session.ts'
import { useStatsStore } from '../stores/stats.ts'

function Figure({ label, value, to, icon }: { label: string; value: number; to?: string; icon: string }) {
  const body = (
    <>
      <span className="figure-icon" aria-hidden="true"><Icon name={icon} /></span>
      <span className="figure-value">{fmtNumber(value)}</span>
      <span className="figure-label">{label}</span>
    </>
  )
  return to ? <Link to={to} className="figure">{body}</Link> : <div className="figure">{body}</div>
}

export function DashboardPage() {
  const { stats, error, load, loading } = useStatsStore()
  const role = useSessionStore((s) => s.user!.role)
  const name = useSessionStore((s) => s.user!.name)
  const categories = useCategoriesStore((s) => s.categories)
  const loadCategories = useCategoriesStore((s) => s.load)
  const [lastImport, setLastImport] = useState<ImportHistoryEntry | null>(null)

  useEffect(() => {
    void load()
    void loadCategories()
    if (can(role, 'import:use')) fetchImportHistory().then((h) => setLastImport(h.imports[0] ?? null), () => undefined)
  }, [load, loadCategories, role])

  if (error && !stats) return <ErrorState message={error} onRetry={() => { useStatsStore.getState().invalidate(); void load() }} />
  if (!stats) return <Loading label="Counting your library…" />

  const color = (n: string) => categories.find((c) => c.name === n)?.color
  const slug = (n: string) => categories.find((c) => c.name === n)?.slug
  const first = name.split(' ')[0]

  if (stats.totalBookmarks === 0) {
    return (
      <>
        <PageHeader title={`Hello, ${first}`} subtitle="Your library is empty for now." />
        <EmptyState icon="upload" title="Bring in your saved posts"
          action={can(role, 'import:use') ? <button type="button" className="btn btn-primary" onClick={() => navigate('/import')}><Icon name="upload" /> Import an export file</button> : undefined}>
          {can(role, 'import:use')
            ? 'Drop an X archive or a bookmarks export anywhere on this window, or choose a file. Sheaf reads it on this computer.'
            : 'An admin imports the posts; they will appear here as soon as that happens.'}
        </EmptyState>
      </>
    )
  }

  return (
    <div className="dashboard">
      <PageHeader title={`Hello, ${first}`} subtitle={<>Last import {fmtRelative(stats.recentImport)}{stats.recentImport && <> · {fmtDate(stats.recentImport, { dateStyle: 'medium', timeStyle: 'short' })}</>}</>}
        actions={can(role, 'import:use') && <button type="button" className="btn" onClick={() => navigate('/import')}><Icon name="upload" /> Import</button>} />
      <section className="figures" aria-label="Library figures">
        <Figure label="Posts" value={stats.totalBookmarks} to="/library" icon="library" />
        {/* No library view holds only the categorised posts, so this figure links nowhere. */}
        <Figure label="Categorised" value={stats.categorizedBookmarks} icon="check" />
        <Figure label="Uncategorised" value={stats.uncategorizedBookmarks} to="/library?uncategorized=true" icon="filter" />
        <Figure label="Categories" value={stats.totalCategories} to="/categories" icon="tag" />
        <Figure label="Media items" value={stats.totalMediaItems} to="/library?media=any" icon="image" />
        <Figure label="Analysed" value={stats.analyzedBookmarks} icon="sparkles" />
      </section>
      <div className="dash-grid">
        <section className="panel panel-wide" aria-labelledby="h-time">
          <h2 id="h-time" className="panel-title">Posts over time</h2>
          <TimeChart data={stats.byMonth} label="Posts per month" />
        </section>
        <section className="panel" aria-labelledby="h-cats">
          <h2 id="h-cats" className="panel-title">Top categories</h2>
          <BarList label="Top categories" data={stats.topCategories.slice(0, 8).map((c) => ({ label: c.name, value: c.count, color: color(c.name), to: slug(c.name) ? `/library?category=${slug(c.name)}` : undefined }))} />
        </section>
        <section className="panel" aria-labelledby="h-pipe">
          <h2 id="h-pipe" className="panel-title">Pipeline</h2>
          <PipelineSummary uncategorized={stats.uncategorizedBookmarks} />
        </section>
        <section className="panel" aria-labelledby="h-src">
          <h2 id="h-src" className="panel-title">Sources</h2>
          <BarList label="Sources" data={stats.bySource.map((s) => ({ label: sourceLabel(s.source), value: s.count, to: `/library?source=${encodeURIComponent(s.source)}` }))} />
        </section>
        <section className="panel" aria-labelledby="h-media">
          <h2 id="h-media" className="panel-title">Media</h2>
          <Donut label="Media by type" data={stats.mediaByType.map((m) => ({ label: m.type === 'animated_gif' ? 'GIFs' : m.type === 'photo' ? 'Photos' : 'Videos', value: m.count }))} />
        </section>
        <section className="panel" aria-labelledby="h-auth">
          <h2 id="h-auth" className="panel-title">Most saved authors</h2>
          <BarList label="Most saved authors" data={stats.topAuthors.slice(0, 6).map((a) => ({ label: `@${a.handle}`, value: a.count, to: `/library?author=${encodeURIComponent(a.handle)}` }))} />
        </section>
        {lastImport && (
          <section className="panel" aria-labelledby="h-imp">
            <h2 id="h-imp" className="panel-title">Last import</h2>
            <p className="last-import-file">{lastImport.fileName}</p>
            <p className="muted">{fmtDate(lastImport.createdAt, { dateStyle: 'medium', timeStyle: 'short' })}{lastImport.user && ` by ${lastImport.user.name}`}</p>
            <dl className="kv">
              <div><dt>Imported</dt><dd>{fmtNumber(lastImport.imported)}</dd></div>
              <div><dt>Duplicates</dt><dd>{fmtNumber(lastImport.duplicates)}</dd></div>
              <div><dt>Updated</dt><dd>{fmtNumber(lastImport.updated)}</dd></div>
              <div><dt>Errors</dt><dd>{fmtNumber(lastImport.errors)}</dd></div>
            </dl>
          </section>
        )}
      </div>
      {loading && <span className="sr-only" role="status">Refreshing</span>}
    </div>
  )
}
