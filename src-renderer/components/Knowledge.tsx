import { useEffect, useState } from 'react'
import type { Bookmark, Knowledge } from '../../src-shared/schemas/bookmarks.ts'
import { getBookmark } from '../api/bookmarks.ts'
import { fmtDate } from '../lib/format.ts'
import { safeHref } from '../lib/links.ts'
import { Avatar } from './Avatar.tsx'
import { Icon } from './Icon.tsx'
import { ExternalLink, Link } from './Link.tsx'

const ACTION_LABELS: Record<string, string> = { read_later: 'Read later', reference: 'Reference', try: 'Try it', watch: 'Watch', share: 'Share', archive: 'Archive' }

// Related posts are fetched one by one; keep them for the visit so going back and forth costs nothing.
const relatedCache = new Map<number, Bookmark | null>()

function RelatedCard({ id }: { id: number }) {
  const [b, setB] = useState<Bookmark | null | undefined>(relatedCache.get(id))
  useEffect(() => {
    if (relatedCache.has(id)) return
    const ctl = new AbortController()
    getBookmark(id, ctl.signal).then((r) => { relatedCache.set(id, r); setB(r) }, () => { if (!ctl.signal.aborted) { relatedCache.set(id, null); setB(null) } })
    return () => ctl.abort()
  }, [id])
  if (b === null) return null
  if (!b) return <div className="related-card card-skeleton" aria-hidden="true" />
  return (
    <Link to={`/post/${b.id}`} className="related-card">
      <span className="related-head"><Avatar name={b.authorName} handle={b.authorHandle} size={22} /> <strong>{b.authorName || b.authorHandle}</strong></span>
      <span className="related-text">{b.text.slice(0, 160)}{b.text.length > 160 ? '…' : ''}</span>
    </Link>
  )
}

function OssReport({ report }: { report: unknown }) {
  if (!report || typeof report !== 'object') return null
  const r = report as Record<string, unknown>
  const repos = Array.isArray(r.repos) ? (r.repos as Record<string, unknown>[]) : [r]
  return (
    <div className="oss">
      {repos.map((repo, i) => {
        const url = typeof repo.url === 'string' ? safeHref(repo.url) : null
        const name = String(repo.fullName ?? repo.name ?? repo.repo ?? url ?? 'Repository')
        const facts = Object.entries(repo).filter(([k, v]) => !['url', 'name', 'fullName', 'repo', 'description'].includes(k) && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'))
        return (
          <div key={i} className="oss-repo">
            <p className="oss-name"><Icon name="git" size={16} /> {url ? <ExternalLink href={url}>{name}</ExternalLink> : name}</p>
            {typeof repo.description === 'string' && <p>{repo.description}</p>}
            {facts.length > 0 && (
              <dl className="kv kv-inline">
                {facts.slice(0, 8).map(([k, v]) => <div key={k}><dt>{k}</dt><dd>{String(v)}</dd></div>)}
              </dl>
            )}
          </div>
        )
      })}
    </div>
  )
}

export function KnowledgePanel({ knowledge }: { knowledge: Knowledge | null }) {
  if (!knowledge) {
    return (
      <section className="panel knowledge" aria-labelledby="h-know">
        <h2 id="h-know" className="panel-title"><Icon name="sparkles" size={16} /> Knowledge</h2>
        <p className="muted">Not analysed yet. Run the pipeline to get a summary, tags and related posts.</p>
      </section>
    )
  }
  const k = knowledge
  return (
    <section className="panel knowledge" aria-labelledby="h-know">
      <h2 id="h-know" className="panel-title"><Icon name="sparkles" size={16} /> Knowledge</h2>
      {k.summary && <p className="summary">{k.summary}</p>}
      <dl className="kv kv-inline">
        <div><dt>Sentiment</dt><dd><span className={`pill pill-${k.sentiment}`}>{k.sentiment}</span></dd></div>
        <div><dt>Suggested</dt><dd><span className="pill">{ACTION_LABELS[k.action] ?? k.action}</span></dd></div>
        <div><dt>Confidence</dt><dd>{Math.round(k.confidence * 100)}%</dd></div>
        <div><dt>Analysed</dt><dd>{fmtDate(k.analyzedAt)}</dd></div>
      </dl>
      {k.tags.length > 0 && (
        <div className="tags" aria-label="Tags">
          {k.tags.map((t) => <Link key={t} to={`/library?tag=${encodeURIComponent(t)}`} className="tag">#{t}</Link>)}
        </div>
      )}
      {k.ossReport !== null && k.ossReport !== undefined && (
        <>
          <h3 className="sub-title">Code repository</h3>
          <OssReport report={k.ossReport} />
        </>
      )}
      {k.relatedIds.length > 0 && (
        <>
          <h3 className="sub-title">Related posts</h3>
          <div className="related-grid">{k.relatedIds.slice(0, 6).map((id) => <RelatedCard key={id} id={id} />)}</div>
        </>
      )}
    </section>
  )
}
