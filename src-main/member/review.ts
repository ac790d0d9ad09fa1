import { AppError } from '../../src-shared/errors.ts'
import type { Bookmark } from '../../src-shared/schemas/bookmarks.ts'
import type { ReviewAnswerResponse, ReviewOutcome, ReviewResponse, Streak } from '../../src-shared/schemas/member.ts'
import {
  answersOn, bookmarkExists, bookmarkIdRange, categoriesForBookmarks, dueForReview, libraryStamp, memberStateVersion, putReview, reviewDayList,
  reviewScheduleOf, starredUnreviewed, transaction, unreviewedFrom, type Db,
} from '../store/index.ts'
import { dayOf, dayString } from './days.ts'
import { pickSpread, seededOrder, type Candidate } from './review-pick.ts'

/** Never-reviewed posts are sampled from this many places in the library, this many from each. */
const SLICES = 8
const PER_SLICE = 40
const POOL = 200
/** A kept post's next gap in days: 2, 5, 13, 33, 83, 208, then at most a year. */
export const nextInterval = (previous: number): number => (previous <= 0 ? 2 : Math.min(365, Math.ceil(previous * 2.5)))

export function streakOf(days: readonly number[], today: number, answeredToday: number): Streak {
  let current = 0
  if (days.length > 0 && days[0] >= today - 1) {
    current = 1
    while (current < days.length && days[current] === days[0] - current) current++
  }
  let longest = 0
  let run = 0
  days.forEach((d, i) => {
    run = i > 0 && days[i - 1] === d + 1 ? run + 1 : 1
    longest = Math.max(longest, run)
  })
  return { current, longest, answeredToday }
}

/** Never-reviewed, not hidden posts from SLICES places chosen by the member and day (wrapping at the end). */
function sampleUnreviewed(db: Db, userId: number, day: number): Array<{ id: number; read: number }> {
  const range = bookmarkIdRange(db)
  if (!range) return []
  const span = range.max - range.min + 1
  const starts = seededOrder(Array.from({ length: span < 1000 ? 1 : SLICES }, (_, k) => k), userId, day)
    .map((k) => range.min + ((k * 2654435761 + userId * 40503 + day * 97) >>> 0) % span)
  const seen = new Map<number, { id: number; read: number }>()
  for (const start of starts) {
    const rows = unreviewedFrom(db, userId, start, PER_SLICE)
    if (rows.length < PER_SLICE) rows.push(...unreviewedFrom(db, userId, range.min, PER_SLICE - rows.length))
    for (const r of rows) seen.set(r.id, r)
  }
  return [...seen.values()]
}

/**
 * Today's candidates in order of preference: starred posts never reviewed, unread ones, posts whose review came
 * round again, then read ones never reviewed. Within each group the order is a shuffle seeded by member and day.
 */
function candidates(db: Db, userId: number, day: number): Candidate[] {
  const sampled = sampleUnreviewed(db, userId, day)
  const groups: Array<[Candidate['reason'], number[]]> = [
    ['starred', seededOrder(starredUnreviewed(db, userId, POOL), userId, day)],
    ['unread', seededOrder(sampled.filter((r) => r.read === 0).map((r) => r.id), userId, day)],
    ['due', dueForReview(db, userId, day, POOL)],
    ['new', seededOrder(sampled.filter((r) => r.read === 1).map((r) => r.id), userId, day)],
  ]
  const all = groups.flatMap(([reason, ids]) => ids.map((id) => ({ id, reason, category: -1 })))
  const first = new Map<number, number>()
  for (const c of categoriesForBookmarks(db, all.map((c) => c.id))) if (!first.has(c.bookmarkId)) first.set(c.bookmarkId, c.id)
  const seen = new Set<number>()
  return all.filter((c) => !seen.has(c.id) && seen.add(c.id)).map((c) => ({ ...c, category: first.get(c.id) ?? 0 }))
}

export function createReview({ db, clock, items }: { db: Db; clock: () => number; items: (ids: number[], userId: number) => Bookmark[] }) {
  const streak = (userId: number, day: number): Streak => streakOf(reviewDayList(db, userId), day, answersOn(db, userId, day))
  /** Today's ordered candidates per member, until their state or the library changes. */
  const pools = new Map<number, { key: string; cands: Candidate[] }>()
  const candidatesOf = (userId: number, day: number): Candidate[] => {
    const key = `${day}:${memberStateVersion(db, userId)}:${libraryStamp(db)}`
    const hit = pools.get(userId)
    if (hit?.key === key) return hit.cands
    const cands = candidates(db, userId, day)
    pools.set(userId, { key, cands })
    return cands
  }
  return {
    /** Deterministic for a member, day and library: the same state gives the same handful. */
    today(userId: number, n: number): ReviewResponse {
      const day = dayOf(clock())
      const s = streak(userId, day)
      const remaining = Math.max(0, n - s.answeredToday)
      const picks = remaining === 0 ? [] : pickSpread(candidatesOf(userId, day), remaining)
      const byId = new Map(items(picks.map((p) => p.id), userId).map((b) => [b.id, b]))
      const list = picks.flatMap((p) => (byId.has(p.id) ? [{ bookmark: byId.get(p.id)!, reason: p.reason }] : []))
      return { day: dayString(day), n, items: list, nothingLeft: list.length === 0, streak: s }
    },

    answer(userId: number, id: number, outcome: ReviewOutcome): ReviewAnswerResponse {
      const now = clock()
      const day = dayOf(now)
      return transaction(db, () => {
        if (!bookmarkExists(db, id)) throw new AppError('NOT_FOUND', `No bookmark with id ${id}.`)
        const previous = reviewScheduleOf(db, userId, id)?.reviewInterval ?? 0
        const interval = outcome === 'keep' ? nextInterval(previous) : outcome === 'later' ? previous : 0
        const gap = outcome === 'keep' ? interval : outcome === 'later' ? 1 : null
        putReview(db, userId, id, { due: gap === null ? null : day + gap, interval, now, day })
        return { id, outcome, nextDue: gap === null ? null : dayString(day + gap), intervalDays: gap ?? 0, streak: streak(userId, day) }
      })
    },
  }
}

export type Review = ReturnType<typeof createReview>
