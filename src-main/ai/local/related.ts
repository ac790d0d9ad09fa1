/** Posts similar in meaning (word-vector cosine) and in what they name (shared entities). */
export type RelatedItem = { id: number | string; vector: Float32Array; entities?: Iterable<string> }
export type RelatedMatch = { id: number | string; score: number }

const ENTITY_WEIGHT = 0.15
const MAX_ENTITY_BONUS = 0.3

/**
 * For each item, its k most related other items with score >= minScore. Score = cosine of the
 * vectors + 0.15 per shared entity (tags, tools, hashtags, repos...; lowercased), capped at +0.3.
 * O(n^2 * dim): fine for tens of thousands of posts in a worker (100-d vectors).
 */
export const relatedByVectors = (items: RelatedItem[], k = 5, minScore = 0.5): Map<RelatedItem['id'], RelatedMatch[]> => {
  const n = items.length
  const dim = items[0]?.vector.length ?? 0
  const norms = items.map((it) => {
    let s = 0
    for (let d = 0; d < dim; d++) s += it.vector[d] * it.vector[d]
    return Math.sqrt(s) || 1
  })
  const sets = items.map((it) => new Set([...(it.entities ?? [])].map((e) => e.toLowerCase())))
  const best: RelatedMatch[][] = items.map(() => [])
  const offer = (i: number, m: RelatedMatch) => {
    const list = best[i]
    if (list.length < k) {
      list.push(m)
      list.sort((a, b) => b.score - a.score)
    } else if (m.score > list[k - 1].score) {
      list[k - 1] = m
      list.sort((a, b) => b.score - a.score)
    }
  }
  for (let i = 0; i < n; i++) {
    const a = items[i].vector
    for (let j = i + 1; j < n; j++) {
      const b = items[j].vector
      let dot = 0
      for (let d = 0; d < dim; d++) dot += a[d] * b[d]
      let score = dot / (norms[i] * norms[j])
      if (sets[i].size > 0 && sets[j].size > 0) {
        let shared = 0
        for (const e of sets[i]) if (sets[j].has(e)) shared++
        score += Math.min(MAX_ENTITY_BONUS, shared * ENTITY_WEIGHT)
      }
      if (score < minScore) continue
      offer(i, { id: items[j].id, score: Math.round(score * 1000) / 1000 })
      offer(j, { id: items[i].id, score: Math.round(score * 1000) / 1000 })
    }
  }
  return new Map(items.map((it, i) => [it.id, best[i]]))
}
