import { useEffect, useRef, useState, type FormEvent } from 'react'
import { aiSearch, type SearchResponse } from '../api/search.ts'
import { Avatar } from '../components/Avatar.tsx'
import { CategoryChip } from '../components/CategoryChip.tsx'
import { EmptyState, ErrorState, Loading } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { Link } from '../components/Link.tsx'
import { MediaStrip } from '../components/MediaThumbs.tsx'
import { RichText } from '../components/RichText.tsx'
import { fmtDate, noun } from '../lib/format.ts'
import { useQueryParams, useRouterStore } from '../stores/router.ts'

const EXAMPLES = ['threads about rust performance from last year', 'has:image screenshots of dashboards', 'in:ai posts by @simonw', '"local first" -crypto']

// One answer per query for this visit: going back to a search costs no request.
const cache = new Map<string, SearchResponse>()

/** A full page of results is the closest ones, not all there are. */
function resultCount({ results, limit }: SearchResponse): string {
  if (results.length === 0) return 'No matches.'
  return results.length >= limit ? `The ${results.length} closest matches; add words to narrow the search` : noun(results.length, 'result', 'results')
}

export function SearchPage() {
  const params = useQueryParams()
  const q = params.get('q') ?? ''
  const setQuery = useRouterStore((s) => s.setQuery)
  const [text, setText] = useState(q)
  const [data, setData] = useState<SearchResponse | null>(cache.get(q) ?? null)
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const input = useRef<HTMLInputElement>(null)

  useEffect(() => setText(q), [q])
  useEffect(() => {
    if (!q.trim()) {
      setData(null)
      return
    }
    if (cache.has(q)) {
      setData(cache.get(q)!)
      return
    }
    const ctl = new AbortController()
    setLoading(true)
    setError(null)
    aiSearch(q, ctl.signal).then((r) => {
      cache.set(q, r)
      setData(r)
    }, (e) => { if (!ctl.signal.aborted) setError(e.message) }).finally(() => { if (!ctl.signal.aborted) setLoading(false) })
    return () => ctl.abort()
  }, [q])
  // Typing searches after a pause (the AI search is the costliest request we make).
  useEffect(() => {
    const t = setTimeout(() => { if (text.trim() !== q.trim() && text.trim().length >= 2) setQuery({ q: text.trim() }, { replace: true }) }, 600)
    return () => clearTimeout(t)
  }, [text, q, setQuery])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (text.trim()) setQuery({ q: text.trim() }, { replace: false })
  }

  const u = data?.understood
  return (
    <div className="search-page">
      <form className="search-hero" role="search" onSubmit={submit}>
        <label htmlFor="ai-q" className="search-hero-label"><Icon name="sparkles" size={18} /> Ask your library</label>
        <div className="search-hero-box">
          <Icon name="search" />
          <input id="ai-q" ref={input} data-search-box type="search" value={text} onChange={(e) => setText(e.target.value)}
            placeholder="e.g. posts about sqlite performance from 2024" autoFocus autoComplete="off" />
          <button type="submit" className="btn btn-primary">Search</button>
        </div>
      </form>
      {u && u.corrections.length > 0 && (
        <p className="search-correction" role="status">
          Showing results for {u.corrections.map((c, i) => <span key={c.from}>{i > 0 && ', '}<strong>{c.to}</strong></span>)}
          {' — '}search for {u.chips.filter((c) => c.kind === 'correction').map((c, i) => (
            <span key={c.label}>{i > 0 && ', '}<button type="button" className="link-button" onClick={() => setQuery({ q: c.queryWithout }, { replace: false })}>
              {u.corrections[i]?.from}
            </button></span>
          ))} instead
        </p>
      )}
      {u && u.chips.some((c) => c.kind !== 'correction') && (
        <div className="understood" aria-label="Understood from your question">
          <span className="muted">Understood:</span>
          {u.chips.filter((c) => c.kind !== 'correction').map((c) => (
            <span key={c.kind + c.label} className={`chip chip-plain chip-${c.kind}`}>
              {c.label}
              <button type="button" className="chip-remove" aria-label={`Remove “${c.label}” from the search`} onClick={() => setQuery({ q: c.queryWithout || null }, { replace: false })}>
                <Icon name="x" size={12} />
              </button>
            </span>
          ))}
        </div>
      )}
      {u && u.notes.length > 0 && <p className="muted search-notes">{u.notes.join(' ')}</p>}
      {error && <ErrorState message={error} />}
      {loading && !data && <Loading label="Searching…" />}
      {!q && (
        <EmptyState icon="sparkles" title="Search by meaning, not just words">
          <p>Describe what you remember. Filters such as <kbd>by @handle</kbd>, <kbd>in:category</kbd>, <kbd>has:image</kbd>, dates and <kbd>-word</kbd> are understood.</p>
          <ul className="examples">
            {EXAMPLES.map((ex) => <li key={ex}><button type="button" className="btn btn-ghost btn-small" onClick={() => setQuery({ q: ex }, { replace: false })}>{ex}</button></li>)}
          </ul>
        </EmptyState>
      )}
      {data && q && (
        <section aria-label="Results" aria-busy={loading}>
          <p className="result-count" role="status">{resultCount(data)}{data.rerank === 'applied' ? ' · reranked by the AI model' : ''}</p>
          {data.results.length === 0 && <EmptyState icon="search" title="Nothing matched">Try fewer words, or remove a filter above.</EmptyState>}
          <ol className="results">
            {data.results.map((r) => (
              <li key={r.bookmark.id} className="result">
                <div className="relevance" aria-label={`Relevance ${Math.round(r.relevance * 100)}%`} title={`Relevance ${r.relevance.toFixed(3)} (0 to 1)`}>
                  <span className="relevance-bar"><span style={{ width: `${Math.round(r.relevance * 100)}%` }} /></span>
                  <span className="relevance-num">{Math.round(r.relevance * 100)}%</span>
                </div>
                <div className="result-body">
                  <p className="result-head">
                    <Avatar name={r.bookmark.authorName} handle={r.bookmark.authorHandle} size={24} />
                    <Link to={`/post/${r.bookmark.id}`} className="result-author">{r.bookmark.authorName || r.bookmark.authorHandle}</Link>
                    <span className="muted">@{r.bookmark.authorHandle} · {fmtDate(r.bookmark.postCreatedAt)}</span>
                    {r.bookmark.state?.starred && <span className="state-tag"><Icon name="star" size={13} /> Starred</span>}
                    {r.bookmark.state?.hidden && <span className="state-tag"><Icon name="eyeOff" size={13} /> Hidden for you</span>}
                  </p>
                  <p className="result-text"><RichText text={r.bookmark.text} urls={r.bookmark.urls} /></p>
                  {r.bookmark.media.length > 0 && <MediaStrip media={r.bookmark.media} max={4} />}
                  <p className="reason"><Icon name="sparkles" size={14} /> <span><Reason text={r.reason} /></span></p>
                  {r.bookmark.categories.length > 0 && <div className="chips">{r.bookmark.categories.map((c) => <CategoryChip key={c.slug} category={c} small />)}</div>}
                </div>
              </li>
            ))}
          </ol>
        </section>
      )}
    </div>
  )
}

/** A reason with the words it quotes (“Leipzig”) set in italics; still plain text, never HTML. */
function Reason({ text }: { text: string }) {
  const parts = text.split(/“([^”]*)”/)
  return <>{parts.map((p, i) => (i % 2 === 1 ? <em key={i}>{p}</em> : p))}</>
}
