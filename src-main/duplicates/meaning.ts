import { dot } from '../ai/local/index.ts'
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
  for (let i = 0; i < text.length; i++) {
    // ASCII (most of most posts) without the regex engine: its letters are a-z and A-Z, all Latin.
    const c = text.charCodeAt(i)
    if (c < 128) {
      const lower = c | 32
      if (lower >= 97 && lower <= 122) {
        letters++
        latin++
      }
      continue
    }
    const ch = String.fromCodePoint(text.codePointAt(i)!)
    i += ch.length - 1
    if (!LETTER.test(ch)) continue
    letters++
    if (LATIN.test(ch)) latin++
  }
  return letters >= 10 && latin / letters >= 0.8
}

const LETTER = /\p{L}/u
const LATIN = /\p{Script=Latin}/u

/**
 * Related candidates looked at per post, nearest first. A near-identical copy shares the post's entities
 * too, so it ranks first or second among related posts; each candidate's vector is a random read (~12 µs
 * at 100,000 posts), and two keep stage 4 fast (~26 ms per batch of 250; five cost ~45 ms).
 */
export const MEANING_CANDIDATES = 2

/**
 * Pairs [post, candidate] of near-identical meaning among each post's nearest related posts (stage 4's
 * related ids, best first). The candidates' vectors are read here (the posts' own come in); cosines
 * first, and only the few pairs above the threshold have their texts checked for script.
 */
export function nearIdenticalPairs(
  db: Db, model: string, posts: ReadonlyArray<{ id: number; text: string }>, related: readonly number[][], vectors: Map<number, Float32Array>,
): Array<[number, number]> {
  const candidates = related.map((r) => (r ?? []).slice(0, MEANING_CANDIDATES))
  const missing = [...new Set(candidates.flat())].filter((id) => !vectors.has(id))
  const more = embeddingsFor(db, model, missing)
  const close: Array<[number, number]> = []
  posts.forEach((p, i) => {
    const v = vectors.get(p.id)
    if (!v) return
    for (const c of candidates[i] ?? []) {
      const w = vectors.get(c) ?? more.get(c)
      if (c !== p.id && w && dot(v, w) >= NEAR_IDENTICAL_COSINE) close.push([p.id, c])
    }
  })
  if (close.length === 0) return []
  const texts = new Map(posts.map((p) => [p.id, p.text]))
  for (const [id, text] of textsByIds(db, close.map(([, c]) => c).filter((c) => !texts.has(c)))) texts.set(id, text)
  const latin = new Map<number, boolean>()
  const isLatin = (id: number) => {
    let l = latin.get(id)
    if (l === undefined) latin.set(id, (l = isLatinText(texts.get(id) ?? '')))
    return l
  }
  return close.filter(([a, b]) => isLatin(a) && isLatin(b))
}
