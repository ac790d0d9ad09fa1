import type { CSSProperties } from 'react'
import { NEUTRAL_CATEGORY_COLOR } from '../../src-shared/categories.ts'
import type { CategorySummary } from '../../src-shared/schemas/bookmarks.ts'
import { COLOR_RE } from '../../src-shared/schemas/categories.ts'
import { Icon } from './Icon.tsx'
import { Link } from './Link.tsx'

/** A category's colour as the `--chip` the chip, card and review styles read; anything but #rrggbb shows neutral. */
export const chipStyle = (color: string): CSSProperties =>
  ({ '--chip': COLOR_RE.test(color) ? color : NEUTRAL_CATEGORY_COLOR }) as CSSProperties

/** A category as a chip: the colour as a dot and a tint, the name always in the readable text colour. */
export function CategoryChip({ category, onRemove, link = true, small }: {
  category: CategorySummary
  onRemove?: () => void
  link?: boolean
  small?: boolean
}) {
  const style = chipStyle(category.color)
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
