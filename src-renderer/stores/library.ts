import { create } from 'zustand'
import type { MemberState } from '../../src-shared/schemas/bookmarks.ts'
import { listBookmarks, PAGE_SIZE, type Bookmark } from '../api/bookmarks.ts'

/** The URL parameters that select which posts the library shows (everything else is view state). */
export const FILTER_KEYS = ['category', 'source', 'author', 'media', 'from', 'to', 'uncategorized', 'q', 'tag', 'lang', 'sort', 'threads', 'read', 'starred', 'hidden'] as const

export const filterKey = (params: URLSearchParams): string => {
  const qs = new URLSearchParams()
  for (const k of FILTER_KEYS) {
    const v = params.get(k)
    if (v) qs.set(k, v)
  }
  return qs.toString()
}

interface LibraryState {
  key: string | null
  total: number | null
  pages: Record<number, Bookmark[]>
  inflight: Record<number, true>
  error: string | null
  scrollTop: number
  selected: Set<number>
  /** Switches to a filter (keeps the cache when it is the same one) and loads the first page. */
  use: (key: string) => void
  ensurePages: (pages: number[]) => void
  itemAt: (index: number) => Bookmark | undefined
  reload: () => void
  toggle: (id: number, on?: boolean) => void
  clearSelection: () => void
  setScrollTop: (n: number) => void
  /** Remove posts locally after a delete, so the list does not refetch everything. */
  removeLocal: (ids: number[]) => void
  /** Shows a post's new state (the caller's own) where it is cached; the post stays in place until the next load. */
  patchState: (id: number, state: MemberState) => void
}

export const useLibraryStore = create<LibraryState>((set, get) => {
  async function fetchPage(key: string, page: number) {
    set((s) => ({ inflight: { ...s.inflight, [page]: true } }))
    try {
      const r = await listBookmarks({ ...Object.fromEntries(new URLSearchParams(key)), page })
      if (get().key !== key) return
      set((s) => {
        const inflight = { ...s.inflight }
        delete inflight[page]
        return { pages: { ...s.pages, [page]: r.bookmarks }, total: r.total, inflight, error: null }
      })
    } catch (e) {
      if (get().key !== key) return
      set((s) => {
        const inflight = { ...s.inflight }
        delete inflight[page]
        return { inflight, error: (e as Error).message, total: s.total ?? 0 }
      })
    }
  }
  return {
    key: null,
    total: null,
    pages: {},
    inflight: {},
    error: null,
    scrollTop: 0,
    selected: new Set(),
    use(key) {
      if (get().key === key && (get().total !== null || Object.keys(get().inflight).length)) return
      set({ key, total: null, pages: {}, inflight: {}, error: null, scrollTop: 0, selected: new Set() })
      void fetchPage(key, 1)
    },
    ensurePages(pages) {
      const { key, pages: have, inflight, total } = get()
      if (key === null) return
      const last = total === null ? 1 : Math.max(1, Math.ceil(total / PAGE_SIZE))
      for (const p of pages) if (p >= 1 && p <= last && !have[p] && !inflight[p]) void fetchPage(key, p)
    },
    itemAt(index) {
      const page = Math.floor(index / PAGE_SIZE) + 1
      return get().pages[page]?.[index % PAGE_SIZE]
    },
    reload() {
      const key = get().key
      if (key === null) return
      set({ total: null, pages: {}, inflight: {}, error: null })
      void fetchPage(key, 1)
    },
    toggle(id, on) {
      const selected = new Set(get().selected)
      if (on ?? !selected.has(id)) selected.add(id)
      else selected.delete(id)
      set({ selected })
    },
    clearSelection: () => set({ selected: new Set() }),
    patchState(id, state) {
      const pages = get().pages
      const next: Record<number, Bookmark[]> = {}
      let changed = false
      for (const [p, items] of Object.entries(pages)) {
        next[Number(p)] = items.map((b) => (b.id === id ? ((changed = true), { ...b, state }) : b))
      }
      if (changed) set({ pages: next })
    },
    setScrollTop: (scrollTop) => set({ scrollTop }),
    removeLocal(ids) {
      const drop = new Set(ids)
      // Re-flow the cached items so indexes stay continuous; pages beyond the loaded ones refetch.
      const all: Bookmark[] = []
      const pages = get().pages
      const max = Math.max(0, ...Object.keys(pages).map(Number))
      let contiguous = true
      for (let p = 1; p <= max && contiguous; p++) {
        if (!pages[p]) contiguous = false
        else all.push(...pages[p].filter((b) => !drop.has(b.id)))
      }
      const next: Record<number, Bookmark[]> = {}
      for (let i = 0; i * PAGE_SIZE < all.length; i++) next[i + 1] = all.slice(i * PAGE_SIZE, (i + 1) * PAGE_SIZE)
      if (next[Object.keys(next).length] && next[Object.keys(next).length].length < PAGE_SIZE) delete next[Object.keys(next).length]
      set((s) => ({ pages: next, total: s.total === null ? null : Math.max(0, s.total - ids.length), selected: new Set() }))
      get().ensurePages([1])
    },
  }
})
