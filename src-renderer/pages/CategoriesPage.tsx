import { useEffect, useState, type FormEvent } from 'react'
import { CATEGORY_COLORS, nextCategoryColor } from '../../src-shared/categories.ts'
import * as api from '../api/categories.ts'
import type { Category } from '../api/categories.ts'
import { chipStyle } from '../components/CategoryChip.tsx'
import { CategoryReview } from '../components/CategoryReview.tsx'
import { ConfirmDialog, Dialog } from '../components/Dialog.tsx'
import { EmptyState, ErrorState, Loading, PageHeader } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { Link } from '../components/Link.tsx'
import { fmtNumber } from '../lib/format.ts'
import { useCategoriesStore } from '../stores/categories.ts'
import { useLibraryStore } from '../stores/library.ts'
import { useQueryParams, useRouterStore } from '../stores/router.ts'
import { useCan } from '../stores/session.ts'
import { useStatsStore } from '../stores/stats.ts'
import { toast } from '../stores/toast.ts'

type Editing = { mode: 'new' } | { mode: 'edit'; cat: Category } | { mode: 'merge'; cat: Category } | { mode: 'delete'; cat: Category } | null

function CategoryForm({ cat, onDone }: { cat: Category | null; onDone: () => void }) {
  const [name, setName] = useState(cat?.name ?? '')
  const [color, setColor] = useState(() => cat?.color ?? nextCategoryColor(useCategoriesStore.getState().categories.length))
  const [description, setDescription] = useState(cat?.description ?? '')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      if (cat) await api.updateCategory(cat.id, { name, color, description })
      else await api.createCategory({ name, color, description })
      toast(cat ? `Saved “${name}”.` : `Created “${name}”.`, 'success')
      await useCategoriesStore.getState().load(true)
      if (cat) useLibraryStore.getState().reload()
      onDone()
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form" onSubmit={submit} id="cat-form">
      <div className="field">
        <label htmlFor="cat-name">Name</label>
        <input id="cat-name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={60} autoFocus />
      </div>
      <fieldset className="field">
        <legend>Colour</legend>
        <div className="swatches">
          {CATEGORY_COLORS.map((s) => (
            <button key={s} type="button" className={`swatch${color === s ? ' is-on' : ''}`} style={{ background: s }} aria-label={`Colour ${s}`} aria-pressed={color === s} onClick={() => setColor(s)} />
          ))}
          <label className="swatch-custom">
            <span className="sr-only">Custom colour</span>
            <input type="color" value={color} onChange={(e) => setColor(e.target.value)} />
          </label>
        </div>
      </fieldset>
      <div className="field">
        <label htmlFor="cat-desc">Description</label>
        <textarea id="cat-desc" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} rows={3}
          aria-describedby="cat-desc-hint" />
        <p className="field-hint" id="cat-desc-hint">The pipeline reads this to decide which posts belong here.</p>
      </div>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="form-actions">
        <button type="button" className="btn" onClick={onDone}>Cancel</button>
        <button type="submit" className="btn btn-primary" disabled={busy || !name.trim()}>{busy ? 'Saving…' : cat ? 'Save' : 'Create category'}</button>
      </div>
    </form>
  )
}

function MergeForm({ cat, all, onDone }: { cat: Category; all: Category[]; onDone: () => void }) {
  const others = all.filter((c) => c.id !== cat.id)
  const [into, setInto] = useState(others[0]?.id ?? 0)
  const [busy, setBusy] = useState(false)
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    try {
      await api.mergeCategory(cat.id, into)
      toast(`Merged “${cat.name}” into “${others.find((c) => c.id === into)?.name}”.`, 'success')
      await useCategoriesStore.getState().load(true)
      useLibraryStore.getState().reload()
      onDone()
    } catch (err) {
      toast((err as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className="form" onSubmit={submit}>
      <p>Every post in “{cat.name}” ({fmtNumber(cat.bookmarkCount)}) moves to the category you choose, and “{cat.name}” is removed.</p>
      <div className="field">
        <label htmlFor="merge-into">Merge into</label>
        <select id="merge-into" value={into} onChange={(e) => setInto(Number(e.target.value))}>
          {others.map((c) => <option key={c.id} value={c.id}>{c.name} ({fmtNumber(c.bookmarkCount)})</option>)}
        </select>
      </div>
      <div className="form-actions">
        <button type="button" className="btn" onClick={onDone}>Cancel</button>
        <button type="submit" className="btn btn-primary" disabled={busy || !into}>Merge</button>
      </div>
    </form>
  )
}

export function CategoriesPage() {
  const { categories, status, error, load } = useCategoriesStore()
  const canManage = useCan('categories:manage')
  const canReview = useCan('bookmarks:edit')
  const params = useQueryParams()
  const setQuery = useRouterStore((s) => s.setQuery)
  const [editing, setEditing] = useState<Editing>(null)
  const askedNew = Boolean(params.get('new'))
  useEffect(() => { void load() }, [load])
  useEffect(() => { if (askedNew && canManage) { setEditing({ mode: 'new' }); setQuery({ new: null }) } }, [askedNew, canManage, setQuery])

  const remove = async (cat: Category) => {
    try {
      await api.deleteCategory(cat.id)
      toast(`Deleted “${cat.name}”. Its posts keep their other categories.`, 'success')
      await load(true)
      useLibraryStore.getState().reload()
      useStatsStore.getState().invalidate()
    } catch (e) {
      toast((e as Error).message, 'error')
    }
  }

  const close = () => setEditing(null)
  const total = categories.reduce((s, c) => s + c.bookmarkCount, 0)
  return (
    <div>
      <PageHeader title="Categories" subtitle={status === 'ready' ? `${categories.length} categories · ${fmtNumber(total)} placements` : undefined}
        actions={canManage && <button type="button" className="btn btn-primary" onClick={() => setEditing({ mode: 'new' })}><Icon name="plus" /> New category</button>} />
      {status === 'loading' && <Loading />}
      {status === 'error' && <ErrorState message={error ?? 'Could not load categories.'} onRetry={() => void load(true)} />}
      {status === 'ready' && categories.length === 0 && (
        <EmptyState icon="tag" title="No categories yet" action={canManage && <button type="button" className="btn btn-primary" onClick={() => setEditing({ mode: 'new' })}>Create one</button>}>
          Categories appear when the pipeline runs, or create your own.
        </EmptyState>
      )}
      {categories.length > 0 && (
        <ul className="cat-grid">
          {categories.map((c) => (
            <li key={c.id} className="cat-card" style={chipStyle(c.color)}>
              <div className="cat-card-top">
                <span className="cat-swatch" aria-hidden="true" />
                <h2 className="cat-name"><Link to={`/library?category=${encodeURIComponent(c.slug)}`}>{c.name}</Link></h2>
                <span className="cat-count" aria-label={`${c.bookmarkCount} posts`}>{fmtNumber(c.bookmarkCount)}</span>
              </div>
              <p className="cat-desc">{c.description || <span className="muted">No description.</span>}</p>
              {canManage && (
                <div className="cat-actions">
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => setEditing({ mode: 'edit', cat: c })} aria-label={`Edit ${c.name}`}><Icon name="edit" size={14} /> Edit</button>
                  <button type="button" className="btn btn-small btn-ghost" onClick={() => setEditing({ mode: 'merge', cat: c })} aria-label={`Merge ${c.name}`} disabled={categories.length < 2}><Icon name="merge" size={14} /> Merge</button>
                  <button type="button" className="btn btn-small btn-ghost btn-danger-text" onClick={() => setEditing({ mode: 'delete', cat: c })} aria-label={`Delete ${c.name}`}><Icon name="trash" size={14} /> Delete</button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {canReview && status === 'ready' && categories.length > 0 && <CategoryReview />}
      <Dialog open={editing?.mode === 'new' || editing?.mode === 'edit'} title={editing?.mode === 'edit' ? `Edit “${editing.cat.name}”` : 'New category'} onClose={close}>
        {(editing?.mode === 'new' || editing?.mode === 'edit') && <CategoryForm cat={editing.mode === 'edit' ? editing.cat : null} onDone={close} />}
      </Dialog>
      <Dialog open={editing?.mode === 'merge'} title={editing?.mode === 'merge' ? `Merge “${editing.cat.name}”` : 'Merge'} onClose={close}>
        {editing?.mode === 'merge' && <MergeForm cat={editing.cat} all={categories} onDone={close} />}
      </Dialog>
      <ConfirmDialog open={editing?.mode === 'delete'} title={editing?.mode === 'delete' ? `Delete “${editing.cat.name}”?` : 'Delete'} danger confirmLabel="Delete category"
        message="The posts stay in your library; they only lose this category."
        onConfirm={() => editing?.mode === 'delete' && void remove(editing.cat)} onClose={close} />
    </div>
  )
}
