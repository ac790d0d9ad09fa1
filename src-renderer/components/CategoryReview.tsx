import { useEffect, useState } from 'react'
import * as api from '../api/categories.ts'
import type { CategoryReview as Review } from '../api/categories.ts'
import { fmtNumber } from '../lib/format.ts'
import { useCategoriesStore } from '../stores/categories.ts'
import { toast } from '../stores/toast.ts'
import { chipStyle } from './CategoryChip.tsx'
import { Link } from './Link.tsx'

type Item = Review['items'][number]
const keyOf = (i: Item) => `${i.bookmark.id}:${i.category.slug}`

/** The analysis's least sure placements: a person keeps or removes each; the rest learn from it. */
export function CategoryReview() {
  const [review, setReview] = useState<Review | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<Set<string>>(new Set())
  const anyPlaced = useCategoriesStore((s) => s.categories.some((c) => c.bookmarkCount > 0))
  const load = () => api.reviewCategories().then(setReview, (e: Error) => setError(e.message))
  useEffect(() => { void load() }, [])
  useEffect(() => {
    if (!review?.rescoring.running) return
    const t = setTimeout(() => void load(), 2000)
    return () => clearTimeout(t)
  }, [review])

  const act = async (item: Item, keep: boolean) => {
    try {
      if (keep) await api.confirmCategory(item.bookmark.id, item.category.slug)
      else await api.removeCategory(item.bookmark.id, item.category.slug)
      setDone((d) => new Set(d).add(keyOf(item)))
      toast(keep ? `Kept in “${item.category.name}”. Other posts will learn from it.` : `Removed from “${item.category.name}”. It will not be put back.`, 'success')
      void useCategoriesStore.getState().load(true)
    } catch (e) {
      toast((e as Error).message, 'error')
    }
  }

  if (error) return <p className="muted" role="status">Could not load the placements to review: {error}</p>
  if (!review) return null
  const items = review.items.filter((i) => !done.has(keyOf(i)))
  return (
    <section className="review" aria-labelledby="review-title">
      <h2 id="review-title" className="section-title">Check these placements</h2>
      <p className="muted">
        {review.total === 0
          ? anyPlaced ? 'Nothing to check: every placement the analysis made is one it was fairly sure of.' : 'Nothing to check yet: no post is in a category. Placements appear here once the pipeline has run.'
          : `The analysis was least sure of these ${fmtNumber(review.total)} placements. Keep the right ones and remove the wrong ones; the other posts are placed again from your answers.`}
      </p>
      {review.rescoring.running && (
        <p role="status" className="review-status">Placing posts again from your answers… {fmtNumber(review.rescoring.done)} of {fmtNumber(review.rescoring.total)}</p>
      )}
      {items.length > 0 && (
        <ul className="review-list">
          {items.map((i) => (
            <li key={keyOf(i)} className="review-item">
              <Link to={`/post/${i.bookmark.id}`} className="review-text">{i.bookmark.text.slice(0, 220) || '(no text)'}</Link>
              <span className="chip review-chip" style={chipStyle(i.category.color)} title={`${Math.round((i.category.confidence ?? 0) * 100)}% sure`}>
                {i.category.name}
              </span>
              <span className="review-actions">
                <button type="button" className="btn btn-small" onClick={() => void act(i, true)} aria-label={`Keep “${i.bookmark.text.slice(0, 40)}” in ${i.category.name}`}>Keep</button>
                <button type="button" className="btn btn-small btn-ghost btn-danger-text" onClick={() => void act(i, false)} aria-label={`Remove “${i.bookmark.text.slice(0, 40)}” from ${i.category.name}`}>Remove</button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
