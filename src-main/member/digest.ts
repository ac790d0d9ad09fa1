import type { Digest, DigestPost } from '../../src-shared/schemas/member.ts'
import {
  analyzedBetween, analyzedPerCategory, bookmarkCount, digestPostRows, householdStateVersion, libraryStamp, listCategories, memberStateVersion,
  mostReadCategories, mostStarredBetween, savedBetween, savedByOthersIn, savedPerCategory, topSavedIn, type Db, type TimeWindow,
} from '../store/index.ts'
import { dayOf, startOfDay } from './days.ts'

const TOP_PER_CATEGORY = 3
const MOST_STARRED = 10
const FOR_YOU_CATEGORIES = 3
const FOR_YOU_POSTS = 10
/** "The categories this member reads most" is judged from their last reads. */
const RECENT_READS = 500
/** A window holding at least this share of the library is searched in popularity order. */
const WALK_SHARE = 0.05

const postsOf = (db: Db, ids: readonly number[]): DigestPost[] =>
  digestPostRows(db, ids).map((r) => ({ ...r, url: `https://x.com/${r.authorHandle}/status/${r.postId}` }))

type Counts = Pick<Digest, 'days' | 'from' | 'to' | 'saved' | 'analyzed' | 'categories'>

/** What the library says about the window (cached until the library changes or the day turns). */
function counts(db: Db, days: number, w: TimeWindow): Counts {
  const total = savedBetween(db, w)
  const walk = total >= bookmarkCount(db) * WALK_SHARE
  const saved = new Map(savedPerCategory(db, w).map((r) => [r.categoryId, r.n]))
  const analyzed = new Map(analyzedPerCategory(db, w).map((r) => [r.categoryId, r.n]))
  const named = listCategories(db).map((c) => ({ id: c.id as number | null, slug: c.slug as string | null, name: c.name, color: c.color as string | null }))
  const categories = [...named, { id: null, slug: null, name: 'In no category', color: null }]
    .map((c) => ({ c, saved: saved.get(c.id) ?? 0, analyzed: analyzed.get(c.id) ?? 0 }))
    .filter((x) => x.saved + x.analyzed > 0)
    .sort((a, b) => b.saved - a.saved || b.analyzed - a.analyzed || a.c.name.localeCompare(b.c.name))
    .map(({ c, saved, analyzed }) => ({
      slug: c.slug, name: c.name, color: c.color, saved, analyzed,
      top: saved > 0 ? postsOf(db, topSavedIn(db, c.id, w, TOP_PER_CATEGORY, walk && saved >= total * WALK_SHARE)) : [],
    }))
  return { days, from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString(), saved: total, analyzed: analyzedBetween(db, w), categories }
}

function mostStarred(db: Db, w: TimeWindow): Digest['mostStarred'] {
  const starred = mostStarredBetween(db, w, MOST_STARRED)
  const stars = new Map(starred.map((s) => [s.id, s.stars]))
  return postsOf(db, starred.map((s) => s.id)).map((p) => ({ ...p, stars: stars.get(p.id)! }))
}

function forYou(db: Db, userId: number, w: TimeWindow, walk: boolean): Digest['forYou'] {
  const ids = mostReadCategories(db, userId, FOR_YOU_CATEGORIES, RECENT_READS)
  const names = new Map(listCategories(db).map((c) => [c.id, c]))
  return {
    categories: ids.flatMap((id) => (names.has(id) ? [{ slug: names.get(id)!.slug, name: names.get(id)!.name }] : [])),
    posts: ids.length === 0 ? [] : postsOf(db, savedByOthersIn(db, userId, ids, w, FOR_YOU_POSTS, walk)),
  }
}

/** A value kept while its key stays the same. */
function cached<T>() {
  const byKey = new Map<string, { key: string; value: T }>()
  return (slot: string, key: string, make: () => T): T => {
    const hit = byKey.get(slot)
    if (hit?.key === key) return hit.value
    const value = make()
    byKey.set(slot, { key, value })
    return value
  }
}

/**
 * What the household saved and analysed in the last `days` local days (today included), and what of it suits
 * this member. Each part is cached for the day: the counts until the library changes, the stars until anyone's
 * state does, the member's suggestions until theirs does.
 */
export function createDigest({ db, clock }: { db: Db; clock: () => number }) {
  const countsOf = cached<Counts>()
  const starsOf = cached<Digest['mostStarred']>()
  const mineOf = cached<Digest['forYou']>()
  const windowOf = (days: number) => {
    const today = dayOf(clock())
    const w = { from: startOfDay(today - days + 1), to: startOfDay(today + 1) }
    const library = `${days}:${today}:${libraryStamp(db)}`
    return { w, library, counts: () => countsOf(String(days), library, () => counts(db, days, w)) }
  }
  return {
    /** Counts the window now, so the next digest finds them ready. */
    warm(days: number): void {
      windowOf(days).counts()
    },

    get(userId: number, days: number): Digest {
      const { w, library, counts: countsNow } = windowOf(days)
      const c = countsNow()
      const starred = starsOf(String(days), `${library}:${householdStateVersion(db)}`, () => mostStarred(db, w))
      const mine = mineOf(`${userId}:${days}`, `${library}:${memberStateVersion(db, userId)}`,
        () => forYou(db, userId, w, c.saved >= bookmarkCount(db) * WALK_SHARE))
      return { ...c, mostStarred: starred, forYou: mine }
    },
  }
}

export type DigestService = ReturnType<typeof createDigest>
