import { useCallback, useEffect, useRef, useState } from 'react'
import type { BookmarkDetail, CategorySummary } from '../../src-shared/schemas/bookmarks.ts'
import { getBookmark, mergeBookmark, saveNote, setBookmarkCategories } from '../api/bookmarks.ts'
import { Avatar } from '../components/Avatar.tsx'
import { CategoryEditor } from '../components/CategoryEditor.tsx'
import { DuplicatesPanel } from '../components/Duplicates.tsx'
import { EmptyState, ErrorState, Loading } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { KnowledgePanel } from '../components/Knowledge.tsx'
import { Lightbox } from '../components/Lightbox.tsx'
import { ExternalLink, Link } from '../components/Link.tsx'
import { Thumb } from '../components/MediaThumbs.tsx'
import { RichText } from '../components/RichText.tsx'
import { LinkedPosts, ThreadReader } from '../components/Thread.tsx'
import { StateBar } from '../components/StateBar.tsx'
import { fmtCompact, fmtDate, postUrl, sourceLabel } from '../lib/format.ts'
import { languageName } from '../lib/languages.ts'
import { hostOf, safeHref } from '../lib/links.ts'
import { isTyping } from '../lib/shortcuts.ts'
import { useCategoriesStore } from '../stores/categories.ts'
import { useLibraryStore } from '../stores/library.ts'
import { changeState } from '../stores/member-state.ts'
import { navigate } from '../stores/router.ts'
import { useCan } from '../stores/session.ts'
import { toast } from '../stores/toast.ts'

function neighbours(id: number): { prev?: number; next?: number } {
  const pages = useLibraryStore.getState().pages
  const all = Object.keys(pages).map(Number).sort((a, b) => a - b).flatMap((p) => pages[p])
  const i = all.findIndex((b) => b.id === id)
  return i < 0 ? {} : { prev: all[i - 1]?.id, next: all[i + 1]?.id }
}

function NoteEditor({ post }: { post: BookmarkDetail }) {
  const [text, setText] = useState(post.note ?? '')
  const [saved, setSaved] = useState(post.note ?? '')
  const [state, setState] = useState<'idle' | 'saving' | 'saved'>('idle')
  const canWrite = useCan('notes:write')
  const save = async () => {
    if (text === saved) return
    setState('saving')
    try {
      await saveNote(post.id, text)
      setSaved(text)
      setState('saved')
    } catch (e) {
      setState('idle')
      toast((e as Error).message, 'error')
    }
  }
  if (!canWrite && !post.note) return null
  return (
    <section className="panel" aria-labelledby="h-note">
      <h2 id="h-note" className="panel-title"><Icon name="note" size={16} /> Private note</h2>
      {canWrite ? (
        <>
          <label htmlFor="note" className="sr-only">Private note (only you see it)</label>
          <textarea id="note" className="note" value={text} rows={4} placeholder="Only you see this note." maxLength={20000}
            onChange={(e) => { setText(e.target.value); setState('idle') }} onBlur={() => void save()} />
          <div className="note-foot">
            <span className="muted" role="status">{state === 'saving' ? 'Saving…' : state === 'saved' ? 'Saved' : text !== saved ? 'Unsaved changes' : 'Only you see this note'}</span>
            <button type="button" className="btn btn-small" disabled={text === saved || state === 'saving'} onClick={() => void save()}>Save note</button>
          </div>
        </>
      ) : <p className="note-text">{post.note}</p>}
    </section>
  )
}

export function PostPage({ params }: { params: Record<string, string> }) {
  const id = Number(params.id)
  const [post, setPost] = useState<BookmarkDetail | null>(null)
  const [error, setError] = useState<{ message: string; status: number } | null>(null)
  const [lightbox, setLightbox] = useState<number | null>(null)
  const [savingCats, setSavingCats] = useState(false)
  const canEdit = useCan('bookmarks:edit')
  const canMerge = useCan('bookmarks:delete')
  const loadCats = useCategoriesStore((s) => s.load)
  const top = useRef<HTMLHeadingElement>(null)

  const updateState = useCallback(async (postId: number, change: Partial<NonNullable<BookmarkDetail['state']>>) => {
    const state = await changeState(postId, change)
    if (state) setPost((p) => (p && p.id === postId ? { ...p, state } : p))
  }, [])
  const load = useCallback(() => {
    setError(null)
    setPost(null)
    getBookmark(id).then((p) => {
      setPost(p)
      // Opening a post reads it (for the one who opened it only).
      if (p.state && !p.state.read) void updateState(p.id, { read: true })
    }, (e) => setError({ message: e.message, status: e.status ?? 0 }))
  }, [id, updateState])
  useEffect(() => {
    if (!Number.isInteger(id) || id < 1) setError({ message: 'This is not a post address.', status: 404 })
    else load()
    void loadCats()
  }, [id, load, loadCats])
  const shownId = post?.id
  useEffect(() => { if (shownId !== undefined) top.current?.focus({ preventScroll: true }) }, [shownId])

  const { prev, next } = neighbours(id)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isTyping(e) || e.ctrlKey || e.metaKey || e.altKey || document.querySelector('dialog[open]') || !post) return
      if (e.key === 'ArrowLeft' && prev) navigate(`/post/${prev}`)
      else if (e.key === 'ArrowRight' && next) navigate(`/post/${next}`)
      else if (e.key === 'o') window.open(postUrl(post.authorHandle, post.postId), '_blank', 'noopener,noreferrer')
      else if (e.key === 'e' && canEdit) { e.preventDefault(); document.querySelector<HTMLButtonElement>('[data-edit-categories]')?.click() }
      else if (post.state && (e.key === 's' || e.key === 'm' || e.key === 'h')) {
        const flag = e.key === 's' ? 'starred' : e.key === 'm' ? 'read' : 'hidden'
        void updateState(post.id, { [flag]: !post.state[flag] })
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [post, prev, next, canEdit, updateState])

  const changeCategories = async (slugs: string[]) => {
    if (!post) return
    const before = post.categories
    const all = useCategoriesStore.getState().categories
    const optimistic: CategorySummary[] = slugs.map((s) => before.find((c) => c.slug === s) ?? all.find((c) => c.slug === s)!).filter(Boolean)
    setPost({ ...post, categories: optimistic })
    setSavingCats(true)
    try {
      const r = await setBookmarkCategories(post.id, slugs)
      if (r.categories) setPost((p) => (p ? { ...p, categories: r.categories! } : p))
      useLibraryStore.getState().reload()
      void useCategoriesStore.getState().load(true)
    } catch (e) {
      setPost((p) => (p ? { ...p, categories: before } : p))
      toast((e as Error).message, 'error')
    } finally {
      setSavingCats(false)
    }
  }

  const merge = async (otherId: number) => {
    try {
      setPost(await mergeBookmark(id, otherId))
      useLibraryStore.getState().reload()
      toast('Merged: the other record is kept on this post.', 'success')
    } catch (e) {
      toast((e as Error).message, 'error')
    }
  }

  if (error) {
    return error.status === 404
      ? <EmptyState icon="alert" title="Post not found" action={<Link to="/library" className="btn">Back to the library</Link>}>It may have been deleted.</EmptyState>
      : <ErrorState message={error.message} onRetry={load} />
  }
  if (!post) return <Loading label="Opening the post…" />

  const photos = post.media
  const links = post.urls.filter((u) => safeHref(u.expandedUrl) && !/^https?:\/\/(x|twitter)\.com\/[^/]+\/status\//.test(u.expandedUrl))

  return (
    <div className="post-page">
      <nav className="post-nav" aria-label="Post navigation">
        <button type="button" className="btn btn-ghost" onClick={() => (history.length > 1 ? history.back() : navigate('/library'))}><Icon name="chevronLeft" size={16} /> Back</button>
        <div className="post-nav-step">
          <button type="button" className="icon-btn" disabled={!prev} onClick={() => prev && navigate(`/post/${prev}`)} aria-label="Previous post"><Icon name="chevronLeft" /></button>
          <button type="button" className="icon-btn" disabled={!next} onClick={() => next && navigate(`/post/${next}`)} aria-label="Next post"><Icon name="chevronRight" /></button>
        </div>
      </nav>
      <div className="post-layout">
        <article className="reader" aria-labelledby="post-title">
          <header className="reader-head">
            <Avatar name={post.authorName} handle={post.authorHandle} size={48} />
            <div>
              <h1 id="post-title" ref={top} tabIndex={-1} className="reader-author">{post.authorName || post.authorHandle}</h1>
              <p className="reader-meta">
                <Link to={`/library?author=${encodeURIComponent(post.authorHandle)}`}>@{post.authorHandle}</Link> · <time dateTime={post.postCreatedAt}>{fmtDate(post.postCreatedAt, { dateStyle: 'long', timeStyle: 'short' })}</time>
                {post.lang && <> · <Link to={`/library?lang=${post.lang}`} title="Posts in this language">{languageName(post.lang)}</Link></>}
              </p>
            </div>
            <ExternalLink href={postUrl(post.authorHandle, post.postId)} className="btn btn-small reader-open"><Icon name="external" size={14} /> Open on X</ExternalLink>
          </header>
          <LinkedPosts post={post} />
          {post.state && <StateBar state={post.state} onChange={(change) => void updateState(post.id, change)} />}
          {post.thread
            ? <ThreadReader post={post} />
            : <p className="reader-text" lang={post.lang ?? undefined}><RichText text={post.text} urls={post.urls} /></p>}
          {photos.length > 0 && (
            <div className={`reader-media media-n${Math.min(photos.length, 4)}`}>
              {photos.map((m, i) => m.type !== 'photo' && m.localUrl
                ? <video key={i} className="reader-video" src={m.localUrl} poster={safeHref(m.url) ?? undefined} controls preload="metadata" aria-label={m.altText ?? 'Video'} />
                : <Thumb key={i} media={m} className="reader-thumb" onOpen={() => setLightbox(i)} label={m.type === 'photo' ? `View image ${i + 1} full size` : `Play video ${i + 1}`} />)}
            </div>
          )}
          {post.quoted && (
            <blockquote className="quoted">
              <p className="quoted-head"><Icon name="quote" size={14} /> <strong>{post.quoted.authorName || post.quoted.authorHandle}</strong> <span className="muted">@{post.quoted.authorHandle} · {fmtDate(post.quoted.postCreatedAt)}</span></p>
              <p className="quoted-text"><RichText text={post.quoted.text} urls={post.quoted.urls} /></p>
              <ExternalLink href={postUrl(post.quoted.authorHandle, post.quoted.postId)} className="quoted-link">View the quoted post on X</ExternalLink>
            </blockquote>
          )}
          {links.length > 0 && (
            <div className="link-cards">
              {links.map((u) => (
                <ExternalLink key={u.url} href={safeHref(u.expandedUrl)} className="link-card">
                  <Icon name="link" size={16} />
                  <span className="link-host">{hostOf(u.expandedUrl)}</span>
                  <span className="link-url">{u.expandedUrl}</span>
                </ExternalLink>
              ))}
            </div>
          )}
          <footer className="reader-foot">
            {post.engagement.likes !== null && <span>{fmtCompact(post.engagement.likes ?? 0)} likes</span>}
            {post.engagement.reposts !== null && <span>{fmtCompact(post.engagement.reposts ?? 0)} reposts</span>}
            {post.engagement.views !== null && <span>{fmtCompact(post.engagement.views ?? 0)} views</span>}
            <span>Saved from {sourceLabel(post.source)} · imported {fmtDate(post.importedAt)}</span>
          </footer>
        </article>
        <aside className="post-side" aria-label="About this post">
          <section className="panel" aria-labelledby="h-cats">
            <h2 id="h-cats" className="panel-title"><Icon name="tag" size={16} /> Categories</h2>
            <CategoryEditor value={post.categories} editable={canEdit} busy={savingCats} onChange={(s) => void changeCategories(s)} />
          </section>
          <DuplicatesPanel post={post} canMerge={canMerge} onMerge={merge} />
          <KnowledgePanel knowledge={post.knowledge} />
          <NoteEditor key={post.id} post={post} />
        </aside>
      </div>
      {lightbox !== null && <Lightbox media={photos} index={lightbox} onIndex={setLightbox} onClose={() => setLightbox(null)} />}
    </div>
  )
}
