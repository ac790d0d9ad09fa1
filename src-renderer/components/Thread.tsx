import type { BookmarkDetail, LinkedPost } from '../../src-shared/schemas/bookmarks.ts'
import { fmtDate } from '../lib/format.ts'
import { Icon } from './Icon.tsx'
import { Link } from './Link.tsx'
import { RichText } from './RichText.tsx'

/** "part 3 of 7" on a card and above a post. */
export const partLabel = (position: number, size: number): string => `part ${position} of ${size}`

/**
 * The whole thread, read as one piece: every part in reading order, the open part marked and shown
 * with its links, the others a click away. Text is plain text (RichText makes React nodes, not HTML).
 */
export function ThreadReader({ post }: { post: BookmarkDetail }) {
  const thread = post.thread
  if (!thread) return null
  return (
    <section className="thread" aria-labelledby="h-thread" data-testid="thread">
      <h2 id="h-thread" className="thread-title">
        <Icon name="list" size={16} /> Thread by @{post.authorHandle} · <span data-testid="thread-part">{partLabel(thread.position, thread.posts.length)}</span>
      </h2>
      <ol className="thread-parts">
        {thread.posts.map((p, i) => {
          const current = p.id === post.id
          return (
            <li key={p.id} className={`thread-part${current ? ' is-current' : ''}`} aria-current={current ? 'true' : undefined}>
              <p className="thread-part-head muted">
                {current ? <strong>Part {i + 1}</strong> : <Link to={`/post/${p.id}`}>Part {i + 1}</Link>} · <time dateTime={p.postCreatedAt}>{fmtDate(p.postCreatedAt)}</time>
              </p>
              <p className="thread-part-text" lang={post.lang ?? undefined}>
                {current ? <RichText text={post.text} urls={post.urls} /> : <RichText text={p.text} />}
              </p>
            </li>
          )
        })}
      </ol>
    </section>
  )
}

function LinkedLine({ label, post }: { label: string; post: LinkedPost }) {
  return (
    <p className="linked-post">
      <span className="muted">{label}</span>{' '}
      <Link to={`/post/${post.id}`}>@{post.authorHandle}: {post.text}</Link>
    </p>
  )
}

/** "In reply to" / "Quotes" a post that is in the library (a reply inside a thread is read in the thread). */
export function LinkedPosts({ post }: { post: BookmarkDetail }) {
  const reply = post.inReplyTo && !post.thread?.posts.some((p) => p.id === post.inReplyTo!.id) ? post.inReplyTo : null
  if (!reply && !post.quotes) return null
  return (
    <div className="linked-posts" data-testid="linked-posts">
      {reply && <LinkedLine label="In reply to" post={reply} />}
      {post.quotes && <LinkedLine label="Quotes" post={post.quotes} />}
    </div>
  )
}
