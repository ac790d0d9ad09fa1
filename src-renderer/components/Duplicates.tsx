import { useState } from 'react'
import type { BookmarkDetail, DuplicateReason } from '../../src-shared/schemas/bookmarks.ts'
import { fmtDate, sourceLabel } from '../lib/format.ts'
import { ConfirmDialog } from './Dialog.tsx'
import { Icon } from './Icon.tsx'
import { Link } from './Link.tsx'

export const REASON_LABEL: Record<DuplicateReason, string> = {
  same_text: 'same text',
  same_meaning: 'same meaning',
  same_quote: 'quotes the same post',
  same_link: 'same link',
  translation: 'likely a translation',
}

/**
 * "Also saved as…": the other saved posts that look like copies of this one, why, and a Merge that
 * folds one into this post; below, the posts already merged into it. User text is plain text.
 */
export function DuplicatesPanel({ post, canMerge, onMerge }: { post: BookmarkDetail; canMerge: boolean; onMerge: (otherId: number) => Promise<void> }) {
  const [confirm, setConfirm] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  if (post.duplicates.length === 0 && post.merged.length === 0) return null
  const target = post.duplicates.find((d) => d.id === confirm)
  return (
    <section className="panel" aria-labelledby="h-dups" data-testid="duplicates">
      <h2 id="h-dups" className="panel-title"><Icon name="copy" size={16} /> Also saved as…</h2>
      {post.duplicates.length > 0 && (
        <ul className="dup-list">
          {post.duplicates.map((d) => (
            <li key={d.id} className="dup-item">
              <Link to={`/post/${d.id}`} className="dup-link">
                <span className="dup-author">@{d.authorHandle}</span>
                <span className="dup-text">{d.text}</span>
              </Link>
              <p className="dup-why muted">{d.reasons.map((r) => REASON_LABEL[r]).join(' · ')}</p>
              {canMerge && (
                <button type="button" className="btn btn-small" disabled={busy} onClick={() => setConfirm(d.id)} aria-label={`Merge into this post: the copy by @${d.authorHandle}`}>
                  <Icon name="merge" size={14} /> Merge into this post
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {post.merged.length > 0 && (
        <>
          <h3 className="dup-subtitle">Merged into this post</h3>
          <ul className="dup-list" aria-label="Merged records">
            {post.merged.map((m) => (
              <li key={m.postId} className="dup-item">
                <span className="dup-author">@{m.authorHandle}</span>
                <span className="dup-text">{m.text.length > 200 ? `${m.text.slice(0, 200)}…` : m.text}</span>
                <p className="dup-why muted">saved from {sourceLabel(m.source)} · merged {fmtDate(m.mergedAt)}</p>
              </li>
            ))}
          </ul>
        </>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title="Merge these posts?"
        message={target ? <>The post by @{target.authorHandle} is folded into this one: its notes, categories, tags and media join this post, and its record is kept here under “Merged into this post”. It no longer appears as a post of its own.</> : ''}
        confirmLabel="Merge"
        onClose={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm === null) return
          setBusy(true)
          void onMerge(confirm).finally(() => setBusy(false))
        }}
      />
    </section>
  )
}
