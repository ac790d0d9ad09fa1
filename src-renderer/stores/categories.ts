import { create } from 'zustand'
import * as api from '../api/categories.ts'
import type { Category } from '../api/categories.ts'

interface CategoriesState {
  categories: Category[]
  status: 'idle' | 'loading' | 'ready' | 'error'
  error: string | null
  loadedAt: number
  /** Loads once and reuses the list; `force` refetches (after edits, imports, pipeline runs). */
  load: (force?: boolean) => Promise<void>
  bySlug: (slug: string) => Category | undefined
}

export const useCategoriesStore = create<CategoriesState>((set, get) => ({
  categories: [],
  status: 'idle',
  error: null,
  loadedAt: 0,
  async load(force = false) {
    const s = get()
    if (!force && (s.status === 'loading' || (s.status === 'ready' && Date.now() - s.loadedAt < 60_000))) return
    set({ status: s.status === 'ready' ? 'ready' : 'loading', error: null })
    try {
      const { categories } = await api.listCategories()
      set({ categories, status: 'ready', loadedAt: Date.now() })
    } catch (e) {
      set({ status: 'error', error: (e as Error).message })
    }
  },
  bySlug: (slug) => get().categories.find((c) => c.slug === slug),
}))
