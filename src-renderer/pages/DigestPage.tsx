import { useEffect, useState } from 'react'
import type { Digest, DigestPost } from '../../src-shared/schemas/member.ts'
import { fetchDigest, fetchDigestMarkdown } from '../api/member.ts'
import { EmptyState, ErrorState, Loading } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { Link } from '../components/Link.tsx'
import { fmtDate, fmtNumber } from '../lib/format.ts'
import { useQueryParams, useRouterStore } from '../stores/router.ts'
import { toast } from '../stores/toast.ts'

const WINDOWS = [1, 7, 30] as const

function PostLine({ p, extra }: { p: DigestPost; extra?: string }) {
  return (
    <li className="digest-post">
      {extra && <span className="digest-stars">{extra}</span>}
      <Link to={`/post/${p.id}`}><span className="author-handle">@{p.authorHandle}</span> {p.text}</Link>
    </li>
  )
}

/** What the household saved and analysed lately, and what of it suits the reader; copyable as Markdown. */
export function DigestPage() {
  const params = useQueryParams()
  const setQuery = useRouterStore((s) => s.setQuery)
  const days = WINDOWS.find((d) => String(d) === params.get('days')) ?? 7
  const [digest, setDigest] = useState<Digest | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [markdown, setMarkdown] = useState<string | null>(null)
  const load = () => {
    setError(null)
    setDigest(null)
    setMarkdown(null)
    fetchDigest(days).then(setDigest, (e) => setError((e as Error).message))
  }
  useEffect(load, [days])

  const copy = async () => {
    try {
      const text = markdown ?? await fetchDigestMarkdown(days)
      setMarkdown(text)
      await navigator.clipboard.writeText(text)
      toast('Copied the digest as Markdown.', 'success')
    } catch {
      toast('Copying is not allowed here; the Markdown is shown below to select and copy.', 'info')
    }
  }

  if (error) return <ErrorState message={error} onRetry={load} />
  if (!digest) return <Loading label="Gathering the digest…" />
  const last = new Date(Date.parse(digest.to) - 1).toISOString()
  return (
    <div className="digest-page">
      <div className="page-head">
        <h1>Household digest</h1>
        <div className="seg" role="group" aria-label="Window">
          {WINDOWS.map((d) => (
            <button key={d} type="button" className={d === days ? 'is-on' : ''} aria-pressed={d === days} onClick={() => setQuery({ days: d === 7 ? null : String(d) })}>
              {d === 1 ? 'Today' : `${d} days`}
            </button>
          ))}
        </div>
        <button type="button" className="btn" onClick={() => void copy()}><Icon name="copy" size={14} /> Copy as Markdown</button>
      </div>
      <p className="digest-summary">
        {fmtDate(digest.from)} to {fmtDate(last)}: <strong>{fmtNumber(digest.saved)}</strong> {digest.saved === 1 ? 'post' : 'posts'} saved
        and <strong>{fmtNumber(digest.analyzed)}</strong> analysed by the household.
      </p>
      {digest.categories.length === 0 && <EmptyState icon="digest" title="Nothing saved or analysed in this window">Pick a longer window, or import some posts.</EmptyState>}
      <div className="digest-grid">
        {digest.categories.length > 0 && (
          <section className="panel" aria-labelledby="h-by-cat">
            <h2 id="h-by-cat" className="panel-title">By category</h2>
            {digest.categories.map((c) => (
              <div key={c.slug ?? 'none'} className="digest-cat">
                <h3><span className="legend-dot" style={{ background: c.color ?? 'var(--muted)' }} aria-hidden="true" /> {c.name}
                  <span className="muted"> · {fmtNumber(c.saved)} saved · {fmtNumber(c.analyzed)} analysed</span></h3>
                {c.top.length > 0 && <ul className="digest-posts">{c.top.map((p) => <PostLine key={p.id} p={p} />)}</ul>}
              </div>
            ))}
          </section>
        )}
        <div>
          <section className="panel" aria-labelledby="h-starred">
            <h2 id="h-starred" className="panel-title"><Icon name="star" size={16} /> Most starred</h2>
            {digest.mostStarred.length === 0
              ? <p className="muted">Nobody starred a post in this window.</p>
              : <ul className="digest-posts">{digest.mostStarred.map((p) => <PostLine key={p.id} p={p} extra={`${p.stars} ${p.stars === 1 ? 'star' : 'stars'}`} />)}</ul>}
            <p className="muted">Stars are counted, never who gave them.</p>
          </section>
          <section className="panel" aria-labelledby="h-for-you">
            <h2 id="h-for-you" className="panel-title"><Icon name="sparkles" size={16} /> For you</h2>
            {digest.forYou.categories.length === 0
              ? <p className="muted">Once you have read a few posts, this shows what others saved in the categories you read most.</p>
              : <>
                  <p className="muted">Saved by others in {digest.forYou.categories.map((c) => c.name).join(', ')}, the categories you read most; not read by you yet.</p>
                  {digest.forYou.posts.length === 0
                    ? <p className="muted">Nothing new there in this window.</p>
                    : <ul className="digest-posts">{digest.forYou.posts.map((p) => <PostLine key={p.id} p={p} />)}</ul>}
                </>}
          </section>
        </div>
      </div>
      {markdown !== null && (
        <details className="panel digest-md" open>
          <summary>The digest as Markdown</summary>
          <label htmlFor="digest-md" className="sr-only">The digest as Markdown</label>
          <textarea id="digest-md" readOnly value={markdown} rows={12} onFocus={(e) => e.currentTarget.select()} />
        </details>
      )}
    </div>
  )
}
