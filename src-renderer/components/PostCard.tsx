import { memo } from 'react'
import type { Bookmark } from '../../src-shared/schemas/bookmarks.ts'
import { fmtCompact, fmtDate } from '../lib/format.ts'
import { languageName, UI_LANGUAGE } from '../lib/languages.ts'
import { Avatar } from './Avatar.tsx'
import { CategoryChip } from './CategoryChip.tsx'
import { Icon } from './Icon.tsx'
import { Link } from './Link.tsx'
import { MediaStrip } from './MediaThumbs.tsx'
import { RichText } from './RichText.tsx'
import { partLabel } from './Thread.tsx'
import { toggleFlag } from '../stores/member-state.ts'

interface PostCardProps {
  bookmark: Bookmark
  view: 'grid' | 'list'
  selected?: boolean
  onToggle?: (id: number, on: boolean) => void
  active?: boolean
}

/** One saved post. The whole card opens the post; the checkbox, links and chips sit above that link. */
export const PostCard = memo(function PostCard({ bookmark: b, view, selected, onToggle, active }: PostCardProps) {
  const likes = b.engagement?.likes
  const st = b.state
  return (
    <article className={`post-card post-card-${view}${selected ? ' is-selected' : ''}${active ? ' is-active' : ''}${st && !st.read ? ' is-unread' : ''}`}
      aria-labelledby={`pc-${b.id}`} data-post-id={b.id}>
      <Link to={`/post/${b.id}`} className="card-cover" id={`pc-${b.id}`} aria-label={`Post by ${b.authorName || b.authorHandle}: ${b.text.slice(0, 80)}`} />
      <header className="post-head">
        {onToggle && (
          <label className="select-box" title="Select">
            <input type="checkbox" checked={!!selected} onChange={(e) => onToggle(b.id, e.target.checked)} aria-label={`Select post by ${b.authorHandle}`} />
          </label>
        )}
        <Avatar name={b.authorName} handle={b.authorHandle} size={view === 'grid' ? 34 : 30} />
        <div className="post-author">
          <span className="author-name">{b.authorName || b.authorHandle}</span>
          <span className="author-handle">@{b.authorHandle} · <time dateTime={b.postCreatedAt}>{fmtDate(b.postCreatedAt)}</time></span>
        </div>
        {st && (
          <span className="state-marks">
            {!st.read && <span className="unread-dot" title="Unread"><span className="sr-only">Unread</span></span>}
            {st.hidden && <span className="hidden-mark" title="Hidden from your library"><Icon name="eyeOff" size={14} /><span className="sr-only">Hidden</span></span>}
            <button type="button" className={`star-btn${st.starred ? ' is-on' : ''}`} aria-pressed={st.starred}
              aria-label={st.starred ? 'Starred (only you see this)' : 'Star (only you see this)'} onClick={() => void toggleFlag(b, 'starred')}>
              <Icon name="star" size={16} />
            </button>
          </span>
        )}
      </header>
      <p className="post-text"><RichText text={b.text} urls={b.urls} /></p>
      {b.media.length > 0 && <MediaStrip media={b.media} max={view === 'grid' ? 4 : 3} />}
      <footer className="post-foot">
        <div className="chips">
          {b.categories.map((c) => <CategoryChip key={c.slug} category={c} small />)}
        </div>
        {b.threadSize > 1 && (
          <span className="thread-badge" title="This post is one part of a thread">{partLabel(b.threadPosition, b.threadSize)}</span>
        )}
        {b.lang && b.lang !== UI_LANGUAGE && (
          <span className="lang-badge" title={`In ${languageName(b.lang)}`} aria-label={`In ${languageName(b.lang)}`}>{b.lang.toUpperCase()}</span>
        )}
        {likes !== null && likes !== undefined && likes > 0 && (
          <span className="post-meta" aria-label={`${likes} likes`}><Icon name="sparkles" size={13} /> {fmtCompact(likes)}</span>
        )}
      </footer>
    </article>
  )
})
