import type { Candidate } from './candidates.ts'

/** Reciprocal-rank fusion's constant: how much the first places count over the later ones. */
export const RRF_K = 60

export type Fused = { id: number; bm25: number | null; cosine: number | null; rrf: number }

/** One list from the two halves' ranked candidates, by reciprocal-rank fusion; each keeps its half's score. */
export function fuse(lexical: readonly Candidate[], nearest: readonly Candidate[]): Fused[] {
  const byId = new Map<number, Fused>()
  const entry = (id: number) => {
    let e = byId.get(id)
    if (!e) byId.set(id, (e = { id, bm25: null, cosine: null, rrf: 0 }))
    return e
  }
  lexical.forEach((l, i) => {
    const e = entry(l.id)
    e.bm25 = l.score
    e.rrf += 1 / (RRF_K + i + 1)
  })
  nearest.forEach((n, i) => {
    const e = entry(n.id)
    e.cosine = n.score
    e.rrf += 1 / (RRF_K + i + 1)
  })
  return [...byId.values()].sort((a, b) => b.rrf - a.rrf)
}
