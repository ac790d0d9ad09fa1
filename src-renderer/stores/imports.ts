import { create } from 'zustand'
import { uploadExport, type ImportResult } from '../api/import.ts'
import { navigate } from './router.ts'
import { toast } from './toast.ts'

/** The library with the most recently imported posts first. */
export const NEW_POSTS_URL = '/library?sort=imported'

export interface Upload {
  id: number
  name: string
  size: number
  progress: number
  status: 'queued' | 'uploading' | 'processing' | 'done' | 'failed'
  result: ImportResult | null
  error: string | null
  /** The formats Sheaf reads, sent with a refusal of a file it cannot read (for the help list). */
  formats: string | null
}

interface ImportsState {
  uploads: Upload[]
  busy: boolean
  /** When the last batch of uploads began (ms): a pipeline run created since is the automatic one. */
  batchStartedAt: number
  add: (files: File[]) => void
  clear: () => void
}

const listeners = new Set<() => void>()
/** Fired after a batch finishes with something new, so lists and stats refresh once. */
export const onImported = (fn: () => void) => {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

let seq = 0
export const useImportsStore = create<ImportsState>((set, get) => {
  const files = new Map<number, File>()
  const patch = (id: number, p: Partial<Upload>) => set((s) => ({ uploads: s.uploads.map((u) => (u.id === id ? { ...u, ...p } : u)) }))

  async function drain() {
    if (get().busy) return
    set({ busy: true, batchStartedAt: Date.now() })
    let changed = false
    let added = 0
    for (;;) {
      const next = get().uploads.find((u) => u.status === 'queued')
      if (!next) break
      patch(next.id, { status: 'uploading' })
      try {
        const result = await uploadExport(files.get(next.id)!, (f) => patch(next.id, { progress: f, status: f >= 1 ? 'processing' : 'uploading' }))
        patch(next.id, { status: 'done', progress: 1, result })
        if (result.imported + result.updated > 0) changed = true
        added += result.imported
      } catch (e) {
        const details = (e as { details?: { formats?: unknown } }).details
        patch(next.id, { status: 'failed', error: (e as Error).message, formats: typeof details?.formats === 'string' ? details.formats : null })
      } finally {
        files.delete(next.id)
      }
    }
    set({ busy: false })
    if (changed) for (const l of listeners) l()
    // The new posts are one click away, and the toast says so.
    if (added > 0) {
      toast(`${added.toLocaleString()} new ${added === 1 ? 'post' : 'posts'} in your library.`, 'success',
        { label: 'Show them', run: () => navigate(NEW_POSTS_URL) })
    }
  }

  return {
    uploads: [],
    busy: false,
    batchStartedAt: 0,
    add(list) {
      const accepted = list.filter((f) => f.size > 0)
      const empty = list.filter((f) => f.size === 0).map((f) => f.name)
      if (empty.length > 0) toast(`Skipped ${empty.length === 1 ? 'an empty file' : `${empty.length} empty files`} (0 bytes): ${empty.join(', ')}.`, 'warning')
      const ups = accepted.map((f) => {
        const id = ++seq
        files.set(id, f)
        return { id, name: f.name, size: f.size, progress: 0, status: 'queued' as const, result: null, error: null, formats: null }
      })
      set((s) => ({ uploads: [...ups, ...s.uploads].slice(0, 50) }))
      void drain()
    },
    clear: () => set((s) => ({ uploads: s.uploads.filter((u) => u.status === 'queued' || u.status === 'uploading' || u.status === 'processing') })),
  }
})
