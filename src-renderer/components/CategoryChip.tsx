import type { CSSProperties } from 'react'
import type { CategorySummary } from '../../src-shared/schemas/bookmarks.ts'
import { Icon } from './Icon.tsx'
import { Link } from './Link.tsx'

const safeColor = (c: string) => (/^#[0-9a-f]{6}$/i.test(c) ? c : '#64748b')

/** A category as a chip: the colour as a dot and a tint, the name always in the readable text colour. */
export function CategoryChip({ category, onRemove, link = true, small }: {
  category: CategorySummary
  onRemove?: () => void
  link?: boolean
  small?: boolean
}) {
  const color = safeColor(category.color)
  const style = { '--chip': color } as CSSProperties
  const body = (
    <>
      <span className="chip-dot" aria-hidden="true" />
      <span className="chip-label">{category.name}</span>
    </>
  )
  return (
    <span className={`chip${small ? ' chip-small' : ''}`} style={style}>
      {link ? <Link to={`/library?category=${encodeURIComponent(category.slug)}`} className="chip-main">{body}</Link> : <span className="chip-main">{body}</span>}
      {onRemove && (
        <button type="button" className="chip-remove" onClick={onRemove} aria-label={`Remove category ${category.name}`}>
          <Icon name="x" size={12} />
        </button>
      )}
    </span>
  )
}
