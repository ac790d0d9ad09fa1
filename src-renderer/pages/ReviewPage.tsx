import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { ReviewOutcome, ReviewResponse } from '../../src-shared/schemas/member.ts'
import { answerReview, fetchReview } from '../api/member.ts'
import { Avatar } from '../components/Avatar.tsx'
import { CategoryChip } from '../components/CategoryChip.tsx'
import { EmptyState, ErrorState, Loading } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { RichText } from '../components/RichText.tsx'
import { fmtDate } from '../lib/format.ts'
import { isTyping } from '../lib/shortcuts.ts'
import { navigate } from '../stores/router.ts'
import { useStatsStore } from '../stores/stats.ts'
import { toast } from '../stores/toast.ts'

const REASONS: Record<ReviewResponse['items'][number]['reason'], string> = {
  starred: 'You starred it and have not reviewed it yet',
  unread: 'Not read yet',
  due: 'Coming round again: you kept it',
  new: 'Read, never reviewed',
}

const ANSWERS: Array<{ outcome: ReviewOutcome; key: string; label: string; hint: string }> = [
  { outcome: 'keep', key: 'k', label: 'Keep', hint: 'see it again, later each time' },
  { outcome: 'done', key: 'd', label: 'Done', hint: 'never in the review again' },
  { outcome: 'later', key: 'l', label: 'Tomorrow', hint: 'ask again tomorrow' },
]

const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`

/** Today's handful, one post at a time, answered from the keyboard alone (k, d, l; Enter opens the post). */
export function ReviewPage() {
  const [review, setReview] = useState<ReviewResponse | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  const emptyLibrary = useStatsStore((s) => s.stats?.totalBookmarks === 0)
  useEffect(() => void useStatsStore.getState().load(), [])
  const load = () => {
    setError(null)
    fetchReview().then(setReview, (e) => setError((e as Error).message))
  }
  useEffect(load, [])
  const item = review?.items[0]
  useEffect(() => { heading.current?.focus({ preventScroll: true }) }, [item?.bookmark.id, review?.nothingLeft])

  // A key can arrive between a render and its effects, so the listener reads the latest state
  // from a ref and a second key while an answer is on its way is dropped, not sent twice.
  const busyRef = useRef(false)
  const answer = async (outcome: ReviewOutcome) => {
    if (!item || busyRef.current) return
    busyRef.current = true
    setBusy(true)
    try {
      const r = await answerReview(item.bookmark.id, outcome)
      const rest = review!.items.slice(1)
      if (rest.length === 0) setReview(await fetchReview())
      else setReview({ ...review!, items: rest, streak: r.streak })
    } catch (e) {
      toast((e as Error).message, 'error')
    } finally {
      busyRef.current = false
      setBusy(false)
    }
  }
  const latest = useRef({ item, answer })
  useLayoutEffect(() => { latest.current = { item, answer } })

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { item, answer } = latest.current
      if (e.defaultPrevented || isTyping(e) || e.ctrlKey || e.metaKey || e.altKey || document.querySelector('dialog[open]') || !item) return
      const a = ANSWERS.find((x) => x.key === e.key)
      if (a) {
        e.preventDefault()
        void answer(a.outcome)
      } else if (e.key === 'Enter' && !(e.target instanceof HTMLButtonElement || e.target instanceof HTMLAnchorElement)) navigate(`/post/${item.bookmark.id}`)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  if (error) return <ErrorState message={error} onRetry={load} />
  if (!review) return <Loading label="Choosing today's posts…" />
  const { streak } = review
  const b = item?.bookmark
  return (
    <div className="review-page">
      <div className="page-head">
        <h1 ref={heading} tabIndex={-1}>Today's review</h1>
        <p className="review-streak" aria-live="polite">
          <Icon name="sparkles" size={16} /> {streak.current > 0 ? `${days(streak.current)} in a row` : 'No streak yet'}
          {streak.longest > streak.current && <span className="muted"> · longest {days(streak.longest)}</span>}
          <span className="muted"> · {streak.answeredToday} answered today</span>
        </p>
      </div>
      {!b || review.nothingLeft ? (
        <EmptyState icon="check" title="Nothing left today" action={<button type="button" className="btn" onClick={() => navigate('/library?read=false')}>Browse your unread posts</button>}>
          {streak.answeredToday > 0 ? `You answered ${streak.answeredToday} today. Come back tomorrow for the next handful.`
            : emptyLibrary ? 'Your library is empty: once posts are imported, a handful comes up here each day.'
              : 'There is nothing to review: every post is hidden, done or not due yet.'}
        </EmptyState>
      ) : (
        <article className="review-card panel" aria-labelledby="review-author" aria-describedby="review-reason">
          <p id="review-reason" className="review-reason">{REASONS[item!.reason]} · {streak.answeredToday + 1} of {streak.answeredToday + review.items.length}</p>
          <header className="reader-head">
            <Avatar name={b.authorName} handle={b.authorHandle} size={40} />
            <div>
              <p id="review-author" className="reader-author">{b.authorName || b.authorHandle}</p>
              <p className="reader-meta">@{b.authorHandle} · <time dateTime={b.postCreatedAt}>{fmtDate(b.postCreatedAt)}</time></p>
            </div>
          </header>
          <p className="reader-text" lang={b.lang ?? undefined}><RichText text={b.text} urls={b.urls} /></p>
          {b.categories.length > 0 && <div className="chips">{b.categories.map((c) => <CategoryChip key={c.slug} category={c} small link={false} />)}</div>}
          <div className="review-actions">
            {ANSWERS.map((a) => (
              <button key={a.outcome} type="button" className={`btn${a.outcome === 'keep' ? ' btn-primary' : ''}`} disabled={busy} onClick={() => void answer(a.outcome)}>
                {a.label} <kbd>{a.key}</kbd><span className="sr-only">: {a.hint}</span>
              </button>
            ))}
            <button type="button" className="btn btn-ghost" onClick={() => navigate(`/post/${b.id}`)}>Open the post <kbd>Enter</kbd></button>
          </div>
          <p className="muted review-help">Keep: {ANSWERS[0].hint}. Done: {ANSWERS[1].hint}. Tomorrow: {ANSWERS[2].hint}.</p>
        </article>
      )}
    </div>
  )
}
