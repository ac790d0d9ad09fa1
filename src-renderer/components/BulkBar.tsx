import { useState } from 'react'
import { bulkAction } from '../api/bookmarks.ts'
import { useCategoriesStore } from '../stores/categories.ts'
import { useLibraryStore } from '../stores/library.ts'
import { changeStates } from '../stores/member-state.ts'
import { useCan } from '../stores/session.ts'
import { useStatsStore } from '../stores/stats.ts'
import { toast } from '../stores/toast.ts'
import { ConfirmDialog } from './Dialog.tsx'
import { Icon } from './Icon.tsx'

/** Actions on the selected posts: add or remove a category, delete. */
export function BulkBar() {
  const selected = useLibraryStore((s) => s.selected)
  const clear = useLibraryStore((s) => s.clearSelection)
  const categories = useCategoriesStore((s) => s.categories)
  const canEdit = useCan('bookmarks:edit')
  const canDelete = useCan('bookmarks:delete')
  const [confirm, setConfirm] = useState(false)
  const [busy, setBusy] = useState(false)
  if (selected.size === 0) return null
  const ids = [...selected]

  const run = async (action: 'addCategory' | 'removeCategory' | 'delete', slug?: string) => {
    setBusy(true)
    try {
      const r = await bulkAction(ids, action, slug)
      const name = categories.find((c) => c.slug === slug)?.name
      toast(action === 'delete' ? `Deleted ${r.affected} posts.` : action === 'addCategory' ? `Added “${name}” to ${r.affected} posts.` : `Removed “${name}” from ${r.affected} posts.`, 'success')
      if (action === 'delete') useLibraryStore.getState().removeLocal(ids)
      else {
        clear()
        useLibraryStore.getState().reload()
      }
      useStatsStore.getState().invalidate()
      void useCategoriesStore.getState().load(true)
    } catch (e) {
      toast((e as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }

  const mine = async (change: { read?: boolean; starred?: boolean }, done: string) => {
    setBusy(true)
    const n = await changeStates(ids, change)
    setBusy(false)
    if (n !== null) toast(`${done} ${n} posts (for you only).`, 'success')
  }

  return (
    <div className="bulkbar" role="region" aria-label="Selected posts">
      <span className="bulk-count" aria-live="polite">{selected.size} selected</span>
      <button type="button" className="btn btn-small" disabled={busy} onClick={() => void mine({ read: true }, 'Marked read:')}>Mark read</button>
      <button type="button" className="btn btn-small" disabled={busy} onClick={() => void mine({ starred: true }, 'Starred')}><Icon name="star" size={14} /> Star</button>
      {canEdit && (
        <>
          <label className="sr-only" htmlFor="bulk-add">Add a category to the selected posts</label>
          <select id="bulk-add" value="" disabled={busy} onChange={(e) => e.target.value && void run('addCategory', e.target.value)}>
            <option value="">Add category…</option>
            {categories.map((c) => <option key={c.slug} value={c.slug}>{c.name}</option>)}
          </select>
          <label className="sr-only" htmlFor="bulk-remove">Remove a category from the selected posts</label>
          <select id="bulk-remove" value="" disabled={busy} onChange={(e) => e.target.value && void run('removeCategory', e.target.value)}>
            <option value="">Remove category…</option>
            {categories.map((c) => <option key={c.slug} value={c.slug}>{c.name}</option>)}
          </select>
        </>
      )}
      {canDelete && <button type="button" className="btn btn-danger btn-small" disabled={busy} onClick={() => setConfirm(true)}><Icon name="trash" size={14} /> Delete</button>}
      <button type="button" className="btn btn-ghost btn-small" onClick={clear}>Clear selection</button>
      <ConfirmDialog open={confirm} title={`Delete ${selected.size} posts?`} danger confirmLabel="Delete posts"
        message="They are removed from this library with their notes and analysis. Importing the export again brings them back."
        onConfirm={() => void run('delete')} onClose={() => setConfirm(false)} />
    </div>
  )
}
