import type { ReviewResponse } from '../../src-shared/schemas/member.ts'

export interface Candidate {
  id: number
  reason: ReviewResponse['items'][number]['reason']
  /** The post's first category (0: none). */
  category: number
}

/** A 32-bit mix of the three numbers (the review's shuffle is a pure function of member, day and post). */
function mix(a: number, b: number, c: number): number {
  let h = (a * 0x9e3779b1) ^ (b * 0x85ebca6b) ^ (c * 0xc2b2ae35)
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d)
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b)
  return (h ^ (h >>> 16)) >>> 0
}

export const seededOrder = (ids: readonly number[], userId: number, day: number): number[] =>
  ids.map((id) => [mix(userId, day, id), id] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]).map(([, id]) => id)

/** Adds up to `k` of `cands` to `picked`, one per category first, then any. */
function spread(cands: readonly Candidate[], k: number, picked: Candidate[]): void {
  const taken = new Set(picked.map((p) => p.id))
  const used = new Set(picked.map((p) => p.category))
  const goal = picked.length + k
  for (const fresh of [true, false]) {
    for (const c of cands) {
      if (picked.length >= goal) return
      if (taken.has(c.id) || (fresh && used.has(c.category))) continue
      picked.push(c)
      taken.add(c.id)
      used.add(c.category)
    }
  }
}

/**
 * Takes `n`: new, starred and unread posts first (each group in turn, spread across categories the handful does
 * not have yet), while posts coming round again keep up to half the handful (so a kept post does come back in a
 * library with thousands unread); then fills up from anything left.
 */
export function pickSpread(cands: readonly Candidate[], n: number): Candidate[] {
  const due = cands.filter((c) => c.reason === 'due')
  const dueSlots = Math.min(due.length, Math.floor(n / 2))
  const picked: Candidate[] = []
  for (const reason of ['starred', 'unread', 'new'] as const) spread(cands.filter((c) => c.reason === reason), n - dueSlots - picked.length, picked)
  spread(due, n - picked.length, picked)
  spread(cands, n - picked.length, picked)
  return picked
}
