import { create } from 'zustand'
import type { Stats } from '../../src-shared/schemas/stats.ts'
import { fetchStats } from '../api/stats.ts'

interface StatsState {
  stats: Stats | null
  error: string | null
  loading: boolean
  stale: boolean
  load: () => Promise<void>
  invalidate: () => void
}

export const useStatsStore = create<StatsState>((set, get) => ({
  stats: null,
  error: null,
  loading: false,
  stale: true,
  async load() {
    if (get().loading || !get().stale) return
    set({ loading: true, error: null })
    try {
      set({ stats: await fetchStats(), stale: false })
    } catch (e) {
      set({ error: (e as Error).message })
    } finally {
      set({ loading: false })
    }
  },
  invalidate: () => set({ stale: true }),
}))
