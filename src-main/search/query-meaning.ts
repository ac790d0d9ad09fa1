import { SEMANTIC_WEIGHT } from './explain.ts'

/**
 * What the sentence encoder makes of a query, and how far to trust it. The encoder cannot read a
 * misspelt word: the query's vector then lands near the posts it cannot read either (emoji, one-word
 * replies, scripts it was not trained on), which outranked the post the other words found.
 */

/** Meaning counts for less beside the words when the query holds a typo (bench/search-relevance.ts: 0.3 cost a paraphrase). */
export const TYPO_SEMANTIC_WEIGHT = 0.5

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The query with each corrected word spelt as the library spells it ("rebase" for "rebsae"). */
export function meaningText(text: string, corrections: ReadonlyArray<{ from: string; to: string }>): string {
  let out = text
  for (const c of corrections) out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escape(c.from)}(?![\\p{L}\\p{N}])`, 'giu'), c.to)
  return out
}

/**
 * A query with a corrected word, or a word that is no known word, is in no post and has no
 * correction (a typo the speller could not place, or a word the encoder likely misreads too).
 */
export const hasTypo = (corrections: number, unknownWords: number): boolean => corrections > 0 || unknownWords > 0

export const semanticWeight = (typo: boolean): number => (typo ? TYPO_SEMANTIC_WEIGHT : SEMANTIC_WEIGHT)

/**
 * Text the encoder reads as nothing at all (a private-use character): emoji-only posts, scripts it
 * was not trained on and such all get this one vector, whatever they say.
 */
export const BLANK_TEXT = '\uE000'
/** Posts at least this close to the blank vector say nothing the encoder can read. */
export const BLANK_COSINE = 0.9

type Scored = { id: number; score: number }

/**
 * Neighbours the encoder cannot read are not "similar in meaning" to anything: a short query sits
 * near the blank vector, so every post of emoji or another script would otherwise come back, all
 * with the same score. For a query with a typo (`typo`), whose vector leans toward the blank one,
 * cosines are also taken with the blank direction removed from the query and the post, so what two
 * texts share only by both being hard to read ("HODL") does not count.
 */
export function withoutBlank(nearest: Scored[], blankScores: readonly Scored[], queryBlank: number, typo: boolean): Scored[] {
  const pu = new Map(blankScores.map((b) => [b.id, b.score]))
  const qu = Math.min(queryBlank, 0.99)
  const kept = nearest.filter((n) => (pu.get(n.id) ?? 0) < BLANK_COSINE)
  if (!typo) return kept
  return kept.map((n) => {
    const u = pu.get(n.id) ?? 0
    return { id: n.id, score: (n.score - qu * u) / Math.sqrt((1 - qu * qu) * (1 - u * u)) }
  }).sort((a, b) => b.score - a.score)
}
