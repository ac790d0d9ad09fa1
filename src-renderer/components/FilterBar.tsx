import { useEffect, useState } from 'react'
import { BOOKMARK_SORTS } from '../../src-shared/schemas/library.ts'
import { fmtNumber, sourceLabel } from '../lib/format.ts'
import { languageName } from '../lib/languages.ts'
import { useCategoriesStore } from '../stores/categories.ts'
import { useLanguagesStore } from '../stores/languages.ts'
import { useRouterStore } from '../stores/router.ts'
import { useStatsStore } from '../stores/stats.ts'
import { Icon } from './Icon.tsx'

// A stable empty list: a selector returning a fresh [] would re-render forever.
const NO_SOURCES: { source: string; count: number }[] = []
const NO_LANGUAGES: { lang: string; count: number }[] = []

const SORT_LABELS: Record<string, string> = { newest: 'Newest first', oldest: 'Oldest first', popular: 'Most popular', imported: 'Recently imported' }
const MEDIA_LABELS: Record<string, string> = { '': 'Any media', any: 'With media', photo: 'Photos', video: 'Videos', none: 'No media' }

/** Library filters; every value lives in the URL so a view can be bookmarked, shared and restored. */
export function FilterBar({ params }: { params: URLSearchParams }) {
  const setQuery = useRouterStore((s) => s.setQuery)
  const categories = useCategoriesStore((s) => s.categories)
  const sources = useStatsStore((s) => s.stats?.bySource) ?? NO_SOURCES
  const languages = useLanguagesStore((s) => s.counts?.languages) ?? NO_LANGUAGES
  const urlQ = params.get('q') ?? ''
  const urlAuthor = params.get('author') ?? ''
  const [q, setQ] = useState(urlQ)
  const [author, setAuthor] = useState(urlAuthor)
  const [open, setOpen] = useState(false)

  useEffect(() => void useLanguagesStore.getState().load(), [])
  useEffect(() => setQ(urlQ), [urlQ])
  useEffect(() => setAuthor(urlAuthor), [urlAuthor])
  // Typing updates the URL after a pause, so the list refetches once per pause, not per key.
  useEffect(() => {
    const t = setTimeout(() => {
      if (urlQ !== q.trim()) setQuery({ q: q.trim() || null })
    }, 350)
    return () => clearTimeout(t)
  }, [q, urlQ, setQuery])
  useEffect(() => {
    const t = setTimeout(() => {
      const a = author.trim().replace(/^@/, '')
      if (urlAuthor !== a) setQuery({ author: a || null })
    }, 400)
    return () => clearTimeout(t)
  }, [author, urlAuthor, setQuery])

  const active = ['category', 'source', 'author', 'media', 'from', 'to', 'uncategorized', 'q', 'tag', 'lang'].filter((k) => params.get(k)).length
  const set = (k: string) => (e: { target: { value: string } }) => setQuery({ [k]: e.target.value || null })

  return (
    <div className="filterbar">
      <div className="filter-main">
        <div className="search-field">
          <Icon name="search" size={16} />
          <input type="search" data-search-box value={q} onChange={(e) => setQ(e.target.value)} placeholder="Filter by words…" aria-label="Filter posts by words" />
        </div>
        <label className="sr-only" htmlFor="f-sort">Sort</label>
        <select id="f-sort" value={params.get('sort') ?? 'newest'} onChange={set('sort')}>
          {BOOKMARK_SORTS.map((s) => <option key={s} value={s}>{SORT_LABELS[s]}</option>)}
        </select>
        <button type="button" className={`btn${active ? ' btn-accent' : ''}`} aria-expanded={open} aria-controls="filter-more" onClick={() => setOpen(!open)}>
          <Icon name="filter" size={16} /> Filters{active ? ` (${active})` : ''}
        </button>
      </div>
      <div id="filter-more" className={`filter-more${open ? ' is-open' : ''}`}>
        <div className="field-inline">
          <label htmlFor="f-cat">Category</label>
          <select id="f-cat" value={params.get('category') ?? ''} onChange={set('category')}>
            <option value="">All categories</option>
            {categories.map((c) => <option key={c.slug} value={c.slug}>{c.name} ({c.bookmarkCount})</option>)}
          </select>
        </div>
        <div className="field-inline">
          <label htmlFor="f-src">Source</label>
          <select id="f-src" value={params.get('source') ?? ''} onChange={set('source')}>
            <option value="">All sources</option>
            {sources.map((s) => <option key={s.source} value={s.source}>{sourceLabel(s.source)}</option>)}
            {params.get('source') && !sources.some((s) => s.source === params.get('source')) && <option value={params.get('source')!}>{params.get('source')}</option>}
          </select>
        </div>
        <div className="field-inline">
          <label htmlFor="f-lang">Language</label>
          <select id="f-lang" value={params.get('lang') ?? ''} onChange={set('lang')}>
            <option value="">All languages</option>
            {languages.map((l) => <option key={l.lang} value={l.lang}>{languageName(l.lang)} ({fmtNumber(l.count)})</option>)}
            {params.get('lang') && !languages.some((l) => l.lang === params.get('lang')) && <option value={params.get('lang')!}>{languageName(params.get('lang')!)}</option>}
          </select>
        </div>
        <div className="field-inline">
          <label htmlFor="f-author">Author</label>
          <input id="f-author" value={author} onChange={(e) => setAuthor(e.target.value)} placeholder="@handle" autoComplete="off" />
        </div>
        <div className="field-inline">
          <label htmlFor="f-media">Media</label>
          <select id="f-media" value={params.get('media') ?? ''} onChange={set('media')}>
            {Object.entries(MEDIA_LABELS).map(([v, l]) => <option key={v} value={v}>{l}</option>)}
          </select>
        </div>
        <div className="field-inline">
          <label htmlFor="f-from">From</label>
          <input id="f-from" type="date" value={params.get('from') ?? ''} onChange={set('from')} />
        </div>
        <div className="field-inline">
          <label htmlFor="f-to">To</label>
          <input id="f-to" type="date" value={params.get('to') ?? ''} onChange={set('to')} />
        </div>
        <label className="check">
          <input type="checkbox" checked={params.get('uncategorized') === 'true'} onChange={(e) => setQuery({ uncategorized: e.target.checked ? 'true' : null })} />
          Uncategorised only
        </label>
        <label className="check">
          <input type="checkbox" checked={params.get('threads') === 'collapsed'} onChange={(e) => setQuery({ threads: e.target.checked ? 'collapsed' : null })} />
          One card per thread
        </label>
        {params.get('tag') && (
          <span className="chip chip-plain">#{params.get('tag')}
            <button type="button" className="chip-remove" aria-label="Remove tag filter" onClick={() => setQuery({ tag: null })}><Icon name="x" size={12} /></button>
          </span>
        )}
        {active > 0 && (
          <button type="button" className="btn btn-ghost" onClick={() => setQuery({ category: null, source: null, author: null, media: null, from: null, to: null, uncategorized: null, q: null, tag: null, lang: null })}>
            Clear filters
          </button>
        )}
      </div>
    </div>
  )
}
