import type { SENTIMENTS } from '../../../src-shared/schemas/bookmarks.ts'
import { readText, type TextDoc } from './nlp.ts'
import { memoByDir, readResourceJson } from './resources.ts'
import { sentimentFeatures, type SentimentFeatures } from './sentiment-features.ts'
import { loadWordVectors, type WordVectors } from './word-vectors.ts'

export type Sentiment = (typeof SENTIMENTS)[number]
export type Probabilities = { negative: number; neutral: number; positive: number }
export type SentimentResult = { label: Sentiment; confidence: number; probabilities: Probabilities }

/**
 * One fitted model, resources/sentiment-model.json (scripts/train-sentiment.ts; docs/understanding.md#sentiment),
 * with two heads:
 * - text: word/bigram/emoji indicators and dense cues of the text; alone, it is the answer for callers
 *   without a sentence vector;
 * - encoder: the post's sentence vector and the cues, plus `textWeight` times the text head. The
 *   pipeline's encoder stage has a vector for every post, so stored sentiments come from this head.
 */
export const SENTIMENT_MODEL_FILE = 'sentiment-model.json'

type HeadJson = { denseScale: number; dense: number[][]; weights: Record<string, number[]>; offset: number[] }
type ModelJson = { classes: string[]; text: HeadJson; encoder: HeadJson & { model: string; vector: number[][]; textWeight: number } }
type Head = { denseScale: number; dense: number[][]; weights: Map<string, number[]>; offset: number[] }
type Model = { text: Head; encoder: Head & { model: string; vector: Float32Array; textWeight: number } }

const head = (h: HeadJson): Head => ({ denseScale: h.denseScale, dense: h.dense, weights: new Map(Object.entries(h.weights)), offset: h.offset })

export const loadSentimentModel = memoByDir((dir): Model => {
  const m = readResourceJson<ModelJson>(SENTIMENT_MODEL_FILE, dir)
  if (m.classes.join() !== 'negative,neutral,positive') throw new Error(`${SENTIMENT_MODEL_FILE}: unexpected classes`)
  return { text: head(m.text), encoder: { ...head(m.encoder), model: m.encoder.model, vector: Float32Array.from(m.encoder.vector.flat()), textWeight: m.encoder.textWeight } }
})

/**
 * Both sides must be this likely, or the lexicon must find a clearly positive and a clearly negative
 * sentence. 0.4, not 0.3: in cross-validation a third of the posts called mixed at 0.3 had one clear side.
 */
const MIXED_PROB = 0.4
const MIXED_SENTENCE = 0.3

export type SentimentDeps = {
  doc?: TextDoc
  /** The post's sentence vector (unit length, from the sentence encoder): the encoder head is used when given. */
  vector?: Float32Array | null
  model?: Model
  vectors?: WordVectors
}

export const softmax3 = (z: readonly number[]): [number, number, number] => {
  const mx = Math.max(z[0], z[1], z[2])
  const a = Math.exp(z[0] - mx)
  const b = Math.exp(z[1] - mx)
  const c = Math.exp(z[2] - mx)
  const s = a + b + c
  return [a / s, b / s, c / s]
}

/** The label from the three probabilities, with 'mixed' when a text is clearly both (shared with the training script). */
export const decideSentiment = ([negative, neutral, positive]: readonly number[], doc: Pick<TextDoc, 'sentenceSentiments'>): SentimentResult => {
  const probabilities = { negative, neutral, positive }
  const s = doc.sentenceSentiments
  const lexiconBoth = s.some((v) => v >= MIXED_SENTENCE) && s.some((v) => v <= -MIXED_SENTENCE)
  if ((positive >= MIXED_PROB && negative >= MIXED_PROB) || (lexiconBoth && Math.abs(positive - negative) < 0.35 && neutral < 0.5)) {
    return { label: 'mixed', confidence: round(Math.min(1, positive + negative)), probabilities }
  }
  const best = positive >= negative && positive >= neutral ? 'positive' : negative >= neutral ? 'negative' : 'neutral'
  return { label: best, confidence: round(probabilities[best]), probabilities }
}

/** A head's logits from the text's cues (the dense features it was fitted on come first) and sparse indicators. */
const headLogits = (h: Head, f: SentimentFeatures): number[] => {
  const z = [0, 0, 0]
  for (const s of f.sparse) {
    const w = h.weights.get(s)
    if (w) for (let k = 0; k < 3; k++) z[k] += w[k]
  }
  const dense = Math.min(f.dense.length, h.dense.length)
  for (let j = 0; j < dense; j++) {
    const x = j === 0 ? f.dense[j] : f.dense[j] * h.denseScale
    const w = h.dense[j]
    for (let k = 0; k < 3; k++) z[k] += w[k] * x
  }
  return z
}

export const classifySentiment = (text: string, deps: SentimentDeps = {}): SentimentResult => {
  const doc = deps.doc ?? readText(text)
  const model = deps.model ?? loadSentimentModel()
  const f = sentimentFeatures(doc, deps.vectors ?? loadWordVectors())
  const t = headLogits(model.text, f)
  const v = deps.vector
  if (!v || v.length === 0) return decideSentiment(softmax3(t.map((x, k) => x + model.text.offset[k])), doc)
  const e = model.encoder
  if (v.length * 3 !== e.vector.length) throw new Error(`sentiment: a ${v.length}-d vector, the model reads ${e.vector.length / 3}-d (${e.model})`)
  const z = headLogits(e, f)
  for (let j = 0; j < v.length; j++) for (let k = 0; k < 3; k++) z[k] += e.vector[j * 3 + k] * v[j]
  return decideSentiment(softmax3(z.map((x, k) => x + e.textWeight * t[k] + e.offset[k])), doc)
}

const round = (x: number) => Math.round(x * 1000) / 1000
