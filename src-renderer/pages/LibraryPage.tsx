import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { PAGE_SIZE } from '../api/bookmarks.ts'
import { BulkBar } from '../components/BulkBar.tsx'
import { EmptyState, ErrorState } from '../components/Feedback.tsx'
import { FilterBar } from '../components/FilterBar.tsx'
import { Icon } from '../components/Icon.tsx'
import { PostCard } from '../components/PostCard.tsx'
import { StateViews, stateViewOf } from '../components/StateViews.tsx'
import { fmtNumber } from '../lib/format.ts'
import { isTyping } from '../lib/shortcuts.ts'
import { useCategoriesStore } from '../stores/categories.ts'
import { filterKey, useLibraryStore } from '../stores/library.ts'
import { toggleFlag } from '../stores/member-state.ts'
import { navigate, useQueryParams, useRouterStore } from '../stores/router.ts'
import { useCan } from '../stores/session.ts'
import { useStatsStore } from '../stores/stats.ts'

const CARD_MIN = 300

export function LibraryPage() {
  const params = useQueryParams()
  const view = params.get('view') === 'list' ? 'list' : 'grid'
  const key = filterKey(params)
  const setQuery = useRouterStore((s) => s.setQuery)
  const lib = useLibraryStore()
  const showFilter = useLibraryStore((s) => s.use)
  const ensurePages = useLibraryStore((s) => s.ensurePages)
  const canSelect = useCan('bookmarks:edit')
  const scrollRef = useRef<HTMLDivElement>(null)
  const [width, setWidth] = useState(0)
  const [active, setActive] = useState(-1)

  useEffect(() => {
    void useCategoriesStore.getState().load()
    void useStatsStore.getState().load()
  }, [])
  useEffect(() => showFilter(key), [key, showFilter])

  useLayoutEffect(() => {
    const el = scrollRef.current
    if (!el) return
    const ro = new ResizeObserver(() => setWidth(el.clientWidth))
    ro.observe(el)
    setWidth(el.clientWidth)
    return () => ro.disconnect()
  }, [])

  const cols = view === 'list' ? 1 : Math.max(1, Math.floor((width - 8) / CARD_MIN))
  const total = lib.total ?? 0
  const rows = Math.ceil(total / cols)

  const virt = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (view === 'list' ? 150 : 320),
    overscan: 4,
    gap: 14,
    paddingStart: 4,
    paddingEnd: 24,
  })
  const items = virt.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items.at(-1)?.index ?? 0

  // Fetch the pages under the viewport once scrolling rests a moment: smooth flings, few requests.
  useEffect(() => {
    if (!total) return
    const t = setTimeout(() => {
      const from = Math.floor((first * cols) / PAGE_SIZE) + 1
      const to = Math.floor((Math.min(total - 1, (last + 1) * cols - 1)) / PAGE_SIZE) + 1
      const pages = []
      for (let p = from; p <= to; p++) pages.push(p)
      ensurePages(pages)
    }, virt.isScrolling ? 140 : 0)
    return () => clearTimeout(t)
  }, [first, last, cols, total, key, virt.isScrolling, ensurePages])

  // Restore the scroll position when coming back from a post.
  const loaded = lib.total !== null
  useEffect(() => {
    const el = scrollRef.current
    const { scrollTop } = useLibraryStore.getState()
    if (el && scrollTop && loaded) el.scrollTop = scrollTop
    return () => {
      if (el) useLibraryStore.getState().setScrollTop(el.scrollTop)
    }
  }, [loaded])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isTyping(e) || e.ctrlKey || e.metaKey || e.altKey || document.querySelector('dialog[open]')) return
      if (e.key === 'j' || e.key === 'k') {
        const next = Math.max(0, Math.min(total - 1, active + (e.key === 'j' ? 1 : -1)))
        setActive(next)
        virt.scrollToIndex(Math.floor(next / cols), { align: 'auto' })
        requestAnimationFrame(() => document.getElementById(`pc-${useLibraryStore.getState().itemAt(next)?.id}`)?.focus({ preventScroll: true }))
      } else if (e.key === 'Enter' && active >= 0 && !(e.target instanceof HTMLAnchorElement)) {
        const b = useLibraryStore.getState().itemAt(active)
        if (b) navigate(`/post/${b.id}`)
      } else if (e.key === 'x' && active >= 0 && canSelect) {
        const b = useLibraryStore.getState().itemAt(active)
        if (b) useLibraryStore.getState().toggle(b.id)
      } else if ((e.key === 's' || e.key === 'm' || e.key === 'h') && active >= 0) {
        const b = useLibraryStore.getState().itemAt(active)
        if (b) void toggleFlag(b, e.key === 's' ? 'starred' : e.key === 'm' ? 'read' : 'hidden')
      } else if (e.key === 'v') setQuery({ view: view === 'grid' ? 'list' : null })
      else if (e.key === 'Escape') useLibraryStore.getState().clearSelection()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [active, total, cols, view, canSelect, setQuery, virt])

  const filtered = key.replace(/(^|&)sort=[^&]*/, '') !== ''
  const stateView = stateViewOf(params)

  return (
    <div className="library">
      <div className="library-head">
        <div className="library-title">
          <h1>Library</h1>
          <span className="count" aria-live="polite">{lib.total === null ? 'Loading…' : `${fmtNumber(lib.total)} ${lib.total === 1 ? 'post' : 'posts'}`}</span>
        </div>
        <div className="seg" role="group" aria-label="View">
          <button type="button" className={view === 'grid' ? 'is-on' : ''} aria-pressed={view === 'grid'} onClick={() => setQuery({ view: null })}><Icon name="grid" size={16} /><span className="sr-only">Grid</span></button>
          <button type="button" className={view === 'list' ? 'is-on' : ''} aria-pressed={view === 'list'} onClick={() => setQuery({ view: 'list' })}><Icon name="list" size={16} /><span className="sr-only">List</span></button>
        </div>
      </div>
      <StateViews params={params} />
      <FilterBar params={params} />
      <BulkBar />
      <div ref={scrollRef} className={`lib-scroll lib-${view}`} role="feed" aria-busy={lib.total === null} aria-label="Posts" tabIndex={-1}>
        {lib.error && lib.total === 0 && <ErrorState message={lib.error} onRetry={lib.reload} />}
        {lib.total === 0 && !lib.error && (
          stateView !== 'all' && key.replace(/(^|&)(sort|read|starred|hidden)=[^&]*/g, '') === ''
            ? <EmptyState icon="filter" title={stateView === 'unread' ? 'Nothing unread' : stateView === 'starred' ? 'No starred posts yet' : 'No hidden posts'}
                action={<button type="button" className="btn" onClick={() => navigate('/library')}>Show all posts</button>}>
                {stateView === 'starred' ? 'Star a post with its star, or press s on it. Only you see your stars.' : stateView === 'hidden' ? 'Posts you hide (h) are left out of your library, and only yours.' : 'You have read every post here.'}
              </EmptyState>
            : filtered
            ? <EmptyState icon="filter" title="No posts match these filters" action={<button type="button" className="btn" onClick={() => navigate('/library')}>Clear filters</button>} />
            : <EmptyState icon="library" title="No posts yet" action={<button type="button" className="btn btn-primary" onClick={() => navigate('/import')}>Import posts</button>}>Import an export file to fill your library.</EmptyState>
        )}
        {lib.total === null && <div className="lib-skeletons">{Array.from({ length: 6 }, (_, i) => <div key={i} className="card-skeleton" />)}</div>}
        {total > 0 && (
          <div className="virt-inner" style={{ height: virt.getTotalSize() }}>
            {items.map((row) => (
              <div key={row.key} data-index={row.index} ref={virt.measureElement} className="virt-row"
                style={{ transform: `translateY(${row.start}px)`, gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))` }}>
                {Array.from({ length: cols }, (_, c) => {
                  const index = row.index * cols + c
                  if (index >= total) return null
                  const b = lib.pages[Math.floor(index / PAGE_SIZE) + 1]?.[index % PAGE_SIZE]
                  return b
                    ? <PostCard key={b.id} bookmark={b} view={view} active={index === active}
                        selected={lib.selected.has(b.id)} onToggle={canSelect ? lib.toggle : undefined} />
                    : <div key={`s${index}`} className="card-skeleton" aria-hidden="true" />
                })}
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  )
}
