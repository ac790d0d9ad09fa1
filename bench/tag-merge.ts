/**
 * Tag merging measured on the labelled pairs of bench/tag-pairs.ts: precision and recall of "these
 * two are one tag" for the sentence encoder alone (cosine of the two names), the spelling evidence
 * alone, the two together (src-main/ai/local/tag-meaning.ts), and the whole vocabulary as the
 * pipeline runs it (alias list, plural and typo folding, then the meaning merge). Prints JSON.
 *   node bench/tag-merge.ts
 */
import { createTagMerger, MERGE_COSINE, shouldMerge, tagEvidence } from '../src-main/ai/local/tag-meaning.ts'
import { createTagVocabulary } from '../src-main/ai/local/tag-vocabulary.ts'
import { loadSentenceEncoder } from '../src-main/ai/local/sentence-encoder.ts'
import { dot } from '../src-main/ai/local/word-vectors.ts'
import { DIFFERENT, SAME, type TagPair } from './tag-pairs.ts'

const encoder = await loadSentenceEncoder()
const encode = (t: string[]) => encoder.encode(t)
const pairs = [...SAME.map((p) => ({ p, same: true })), ...DIFFERENT.map((p) => ({ p, same: false }))]
const vectors = await encode(pairs.flatMap(({ p }) => p))
const cos = pairs.map((_, i) => dot(vectors[2 * i], vectors[2 * i + 1]))

const score = (merged: boolean[]) => {
  let tp = 0
  let fp = 0
  let fn = 0
  const wrong: string[] = []
  pairs.forEach(({ p, same }, i) => {
    if (merged[i] && same) tp++
    if (merged[i] && !same) {
      fp++
      wrong.push(`merged ${p.join(' / ')}`)
    }
    if (!merged[i] && same) fn++
  })
  const round = (x: number) => Math.round(x * 1000) / 1000
  return { precision: round(tp / Math.max(1, tp + fp)), recall: round(tp / (tp + fn)), merged: tp + fp, falseMerges: wrong }
}

/** The vocabulary as the pipeline keeps it: the first tag is in the library, the second arrives with a new post. */
const whole = async ([a, b]: TagPair, meaning: boolean) => {
  const vocab = createTagVocabulary([a])
  const first = vocab.normalize(a)
  if (!meaning) return vocab.normalize(b) === first
  const [second] = await createTagMerger(vocab, encode).resolve([b])
  return second === first
}

const encoderOnly = Object.fromEntries([0.6, 0.7, 0.8, 0.9].map((t) => [`cosine >= ${t}`, score(cos.map((c) => c >= t))]))
const out = {
  bench: 'tag-merge',
  pairs: { same: SAME.length, different: DIFFERENT.length },
  thresholds: MERGE_COSINE,
  encoderOnly,
  spellingOnly: score(pairs.map(({ p }) => tagEvidence(p[0], p[1]) !== null)),
  spellingAndEncoder: score(pairs.map(({ p }, i) => shouldMerge(p[0], p[1], cos[i]))),
  vocabularyBefore: score(await Promise.all(pairs.map(({ p }) => whole(p, false)))),
  vocabularyNow: score(await Promise.all(pairs.map(({ p }) => whole(p, true)))),
}
for (const v of Object.values(out.encoderOnly)) v.falseMerges = v.falseMerges.slice(0, 8)
console.log(JSON.stringify(out, null, 2))
