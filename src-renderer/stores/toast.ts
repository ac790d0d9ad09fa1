import { create } from 'zustand'

export interface Toast {
  id: number
  kind: 'info' | 'success' | 'error' | 'warning'
  message: string
  action?: { label: string; run: () => void }
}

interface ToastState {
  toasts: Toast[]
  push: (t: Omit<Toast, 'id'>, ms?: number) => number
  dismiss: (id: number) => void
}

let seq = 0
export const useToastStore = create<ToastState>((set, get) => ({
  toasts: [],
  push(t, ms = 5000) {
    const id = ++seq
    // The same message twice in a row (e.g. several 429s) shows once.
    const last = get().toasts.at(-1)
    if (last && last.message === t.message) return last.id
    set((s) => ({ toasts: [...s.toasts.slice(-3), { ...t, id }] }))
    if (ms > 0) setTimeout(() => get().dismiss(id), ms)
    return id
  },
  dismiss: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}))

// A toast with something to do stays long enough to be read and acted on.
export const toast = (message: string, kind: Toast['kind'] = 'info', action?: Toast['action']) =>
  useToastStore.getState().push({ message, kind, action }, action ? 15_000 : kind === 'error' ? 8000 : 5000)
