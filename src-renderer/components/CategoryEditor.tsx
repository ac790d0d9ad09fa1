import { useState } from 'react'
import type { CategorySummary } from '../../src-shared/schemas/bookmarks.ts'
import { useCategoriesStore } from '../stores/categories.ts'
import { CategoryChip } from './CategoryChip.tsx'
import { Icon } from './Icon.tsx'

/** Categories of one post, edited in place: remove with the chip's ×, add from a filtered list. */
export function CategoryEditor({ value, onChange, editable, busy }: {
  value: CategorySummary[]
  onChange: (slugs: string[]) => void
  editable: boolean
  busy?: boolean
}) {
  const categories = useCategoriesStore((s) => s.categories)
  const [adding, setAdding] = useState(false)
  const [q, setQ] = useState('')
  const have = new Set(value.map((c) => c.slug))
  const options = categories.filter((c) => !have.has(c.slug) && c.name.toLowerCase().includes(q.toLowerCase())).slice(0, 12)
  const slugs = value.map((c) => c.slug)
  return (
    <div className="cat-editor" aria-busy={busy}>
      <div className="chips">
        {value.length === 0 && <span className="muted">No categories yet.</span>}
        {value.map((c) => (
          <CategoryChip key={c.slug} category={c} onRemove={editable ? () => onChange(slugs.filter((s) => s !== c.slug)) : undefined} />
        ))}
        {editable && !adding && (
          <button type="button" className="chip chip-add" onClick={() => setAdding(true)} data-edit-categories>
            <Icon name="plus" size={12} /> Add category
          </button>
        )}
      </div>
      {editable && adding && (
        <div className="cat-picker">
          <input autoFocus value={q} onChange={(e) => setQ(e.target.value)} placeholder="Find a category" aria-label="Find a category to add"
            onKeyDown={(e) => {
              if (e.key === 'Escape') { e.stopPropagation(); setAdding(false); setQ('') }
              if (e.key === 'Enter' && options[0]) { onChange([...slugs, options[0].slug]); setQ('') }
            }} />
          <ul className="cat-options" aria-label="Categories">
            {options.map((c) => (
              <li key={c.slug}>
                <button type="button" onClick={() => { onChange([...slugs, c.slug]); setQ('') }}>
                  <span className="chip-dot" style={{ background: c.color }} aria-hidden="true" /> {c.name}
                </button>
              </li>
            ))}
            {options.length === 0 && <li className="muted">No other categories{q ? ' match' : ''}.</li>}
          </ul>
          <button type="button" className="btn btn-small" onClick={() => { setAdding(false); setQ('') }}>Done</button>
        </div>
      )}
    </div>
  )
}
