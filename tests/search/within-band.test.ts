import { describe, expect, it } from 'vitest'
import { withinBand, type Candidate } from '../../src-main/search/candidates.ts'

const random = (seed: number) => () => (seed = (seed * 16807) % 2147483647) / 2147483647

/** The meaning half's cut as it was written before withinBand: every post's blank cosine read, then the band. */
function reference(nearest: Candidate[], floor: number, blankOf: (id: number) => number, query: number, typo: boolean): Candidate[] {
  const qu = Math.min(query, 0.99)
  let kept = nearest.filter((n) => blankOf(n.id) < 0.9)
  if (typo) {
    kept = kept.map((n) => {
      const u = blankOf(n.id)
      return { id: n.id, score: (n.score - qu * u) / Math.sqrt((1 - qu * qu) * (1 - u * u)) }
    }).sort((a, b) => b.score - a.score)
  }
  const cut = Math.max(floor, (kept[0]?.score ?? 0) - 0.2)
  return kept.filter((n) => n.score >= cut)
}

describe('the meaning half\'s band', () => {
  it('keeps what reading every post\'s blank cosine kept, reading them only above the cut (typo or not, any floor)', () => {
    const rnd = random(7)
    let readBelow = 0
    for (let round = 0; round < 400; round++) {
      const n = Math.floor(rnd() * 200)
      // Scores best first, some tied; a share of posts the encoder cannot read (blank cosine >= 0.9).
      const nearest = Array.from({ length: n }, (_, i) => ({ id: i + 1, score: Math.round((0.2 + 0.6 * rnd()) * 50) / 50 }))
        .sort((a, b) => b.score - a.score)
      const blank = new Map(nearest.map((c) => [c.id, rnd() < 0.3 ? 0.9 + 0.1 * rnd() : 0.8 * rnd()]))
      const floor = 0.3 + 0.2 * rnd()
      const query = rnd()
      for (const typo of [false, true]) {
        const read: number[] = []
        const blankOf = (id: number) => (read.push(id), blank.get(id)!)
        const got = withinBand(nearest, floor, { of: blankOf, query, typo })
        expect(got).toEqual(reference(nearest, floor, (id) => blank.get(id)!, query, typo))
        if (!typo) readBelow += read.filter((id) => nearest.find((c) => c.id === id)!.score < floor).length
      }
      expect(withinBand(nearest, floor, null)).toEqual(reference(nearest, floor, () => 0, 0, false))
    }
    // Without a typo no cosine below the floor is read.
    expect(readBelow).toBe(0)
  })
})
