import { embeddingsFor, textsByIds, type Db } from '../store/index.ts'

/**
 * Near-identical meaning from the sentence vectors (Universal Sentence Encoder Lite, unit vectors, so
 * the dot product is the cosine). Measured on the real fixtures (../shared/fixtures/exports, 198 posts,
 * 19,503 pairs; see docs/understanding.md#duplicates): English copies the text key also finds score
 * 0.75-0.96 against their originals (a retweet's "RT @a:" and its cut-off end cost the most), the
 * closest merely related English pair 0.88, and unrelated posts in Japanese up to 0.92 with each other:
 * the encoder is English-centred and puts most text it cannot read close together. So: 0.92, and only
 * when both posts are written in Latin script.
 */
export const NEAR_IDENTICAL_COSINE = 0.92

/** At least this share of the letters are Latin: what the English-centred encoder can read. */
export function isLatinText(text: string): boolean {
  let letters = 0
  let latin = 0
  for (const ch of text) {
    if (!/\p{L}/u.test(ch)) continue
    letters++
    if (/\p{Script=Latin}/u.test(ch)) latin++
  }
  return letters >= 10 && latin / letters >= 0.8
}

export function cosine(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length)
  let s = 0
  for (let i = 0; i < n; i++) s += a[i] * b[i]
  return s
}

/**
 * Pairs [post, candidate] of near-identical meaning among each post's related candidates (stage 4's
 * nearest neighbours): the candidates' vectors and texts are read here, the posts' own come in.
 */
export function nearIdenticalPairs(
  db: Db, model: string, posts: ReadonlyArray<{ id: number; text: string }>, candidates: readonly number[][], vectors: Map<number, Float32Array>,
): Array<[number, number]> {
  const wanted = [...new Set(candidates.flat())]
  const missing = wanted.filter((id) => !vectors.has(id))
  const more = embeddingsFor(db, model, missing)
  const texts = textsByIds(db, wanted)
  const out: Array<[number, number]> = []
  posts.forEach((p, i) => {
    const v = vectors.get(p.id)
    if (!v || !isLatinText(p.text)) return
    for (const c of candidates[i] ?? []) {
      const w = vectors.get(c) ?? more.get(c)
      const t = texts.get(c)
      if (c !== p.id && w && t !== undefined && isLatinText(t) && cosine(v, w) >= NEAR_IDENTICAL_COSINE) out.push([p.id, c])
    }
  })
  return out
}
