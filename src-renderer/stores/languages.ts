import { create } from 'zustand'
import type { LanguageCounts } from '../../src-shared/schemas/library.ts'
import { fetchLanguages } from '../api/bookmarks.ts'

interface LanguagesState {
  counts: LanguageCounts | null
  loading: boolean
  stale: boolean
  load: () => Promise<void>
  invalidate: () => void
}

/** Posts per language (GET /api/bookmarks/languages), for the library's Language filter. */
export const useLanguagesStore = create<LanguagesState>((set, get) => ({
  counts: null,
  loading: false,
  stale: true,
  async load() {
    if (get().loading || !get().stale) return
    set({ loading: true })
    try {
      const counts = await fetchLanguages()
      // older posts are still being checked in the background: ask again in a while
      set({ counts, stale: counts.pending > 0 })
    } catch {
      // the filter then offers no languages; the list itself still works
    } finally {
      set({ loading: false })
    }
  },
  invalidate: () => set({ stale: true }),
}))
