import type { Digest, DigestPost } from '../../src-shared/schemas/member.ts'
import {
  analyzedBetween, analyzedPerCategory, digestPostRows, householdStateVersion, libraryStamp, listCategories, memberStateVersion,
  mostReadCategories, mostStarredBetween, savedBetween, savedByOthersIn, savedPerCategory, topSavedIn, type Db, type TimeWindow,
} from '../store/index.ts'
import { dayOf, startOfDay } from './days.ts'

const TOP_PER_CATEGORY = 3
const MOST_STARRED = 10
const FOR_YOU_CATEGORIES = 3
const FOR_YOU_POSTS = 10

const postsOf = (db: Db, ids: readonly number[]): DigestPost[] =>
  digestPostRows(db, ids).map((r) => ({ ...r, url: `https://x.com/${r.authorHandle}/status/${r.postId}` }))

type Household = Omit<Digest, 'forYou'>

function household(db: Db, days: number, w: TimeWindow): Household {
  const saved = new Map(savedPerCategory(db, w).map((r) => [r.categoryId, r.n]))
  const analyzed = new Map(analyzedPerCategory(db, w).map((r) => [r.categoryId, r.n]))
  const named = listCategories(db).map((c) => ({ id: c.id as number | null, slug: c.slug as string | null, name: c.name, color: c.color as string | null }))
  const categories = [...named, { id: null, slug: null, name: 'In no category', color: null }]
    .map((c) => ({ c, saved: saved.get(c.id) ?? 0, analyzed: analyzed.get(c.id) ?? 0 }))
    .filter((x) => x.saved + x.analyzed > 0)
    .sort((a, b) => b.saved - a.saved || b.analyzed - a.analyzed || a.c.name.localeCompare(b.c.name))
    .map(({ c, saved, analyzed }) => ({
      slug: c.slug, name: c.name, color: c.color, saved, analyzed,
      top: saved > 0 ? postsOf(db, topSavedIn(db, c.id, w, TOP_PER_CATEGORY)) : [],
    }))
  const starred = mostStarredBetween(db, w, MOST_STARRED)
  const stars = new Map(starred.map((s) => [s.id, s.stars]))
  return {
    days, from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString(),
    saved: savedBetween(db, w), analyzed: analyzedBetween(db, w), categories,
    mostStarred: postsOf(db, starred.map((s) => s.id)).map((p) => ({ ...p, stars: stars.get(p.id)! })),
  }
}

/**
 * What the household saved and analysed in the last `days` local days (today included), and what of it suits
 * this member. The household's part is cached until the library or anyone's state changes, the member's part
 * until theirs does.
 */
export function createDigest({ db, clock }: { db: Db; clock: () => number }) {
  let shared: { key: string; value: Household } | null = null
  const mine = new Map<number, { key: string; value: Digest['forYou'] }>()
  return {
    get(userId: number, days: number): Digest {
      const today = dayOf(clock())
      const w = { from: startOfDay(today - days + 1), to: startOfDay(today + 1) }
      const key = `${days}:${today}:${libraryStamp(db)}:${householdStateVersion(db)}`
      if (shared?.key !== key) shared = { key, value: household(db, days, w) }
      const myKey = `${key}:${memberStateVersion(db, userId)}`
      let forYou = mine.get(userId)
      if (forYou?.key !== myKey) {
        const ids = mostReadCategories(db, userId, FOR_YOU_CATEGORIES)
        const names = new Map(listCategories(db).map((c) => [c.id, c]))
        forYou = { key: myKey, value: {
          categories: ids.flatMap((id) => (names.has(id) ? [{ slug: names.get(id)!.slug, name: names.get(id)!.name }] : [])),
          posts: ids.length === 0 ? [] : postsOf(db, savedByOthersIn(db, userId, ids, w, FOR_YOU_POSTS)),
        } }
        mine.set(userId, forYou)
      }
      return { ...shared.value, forYou: forYou.value }
    },
  }
}

export type DigestService = ReturnType<typeof createDigest>
