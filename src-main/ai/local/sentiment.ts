import type { SENTIMENTS } from '../../../src-shared/schemas/bookmarks.ts'
import { readText, type TextDoc } from './nlp.ts'
import { memoByDir, readResourceJson } from './resources.ts'
import { sentimentFeatures } from './sentiment-features.ts'
import { loadWordVectors, type WordVectors } from './word-vectors.ts'

export type Sentiment = (typeof SENTIMENTS)[number]
export type Probabilities = { negative: number; neutral: number; positive: number }
export type SentimentResult = { label: Sentiment; confidence: number; probabilities: Probabilities }

/**
 * Two fitted models (docs/understanding.md#sentiment):
 * - with a sentence vector (the pipeline's encoder stage has one for every post):
 *   resources/sentiment-encoder-model.json, fitted by scripts/train-sentiment.ts on the vector plus
 *   the text features below;
 * - without one (callers that do not load the encoder): resources/sentiment-model.json, the text
 *   features alone, fitted by scripts/build-sentiment-model.ts.
 */
export const SENTIMENT_ENCODER_FILE = 'sentiment-encoder-model.json'

type ModelJson = { classes: string[]; denseScale: number; dense: number[][]; weights: Record<string, number[]> }
type Model = { denseScale: number; dense: number[][]; weights: Map<string, number[]> }
type EncoderModelJson = ModelJson & { encoder: string; vector: number[][]; offset: number[] }
type EncoderModel = Model & { encoder: string; vector: Float32Array; offset: number[] }

export const loadSentimentModel = memoByDir((dir): Model => {
  const m = readResourceJson<ModelJson>('sentiment-model.json', dir)
  if (m.classes.join() !== 'negative,neutral,positive') throw new Error('sentiment-model.json: unexpected classes')
  return { denseScale: m.denseScale, dense: m.dense, weights: new Map(Object.entries(m.weights)) }
})

export const loadSentimentEncoderModel = memoByDir((dir): EncoderModel => {
  const m = readResourceJson<EncoderModelJson>(SENTIMENT_ENCODER_FILE, dir)
  if (m.classes.join() !== 'negative,neutral,positive') throw new Error(`${SENTIMENT_ENCODER_FILE}: unexpected classes`)
  return { denseScale: m.denseScale, dense: m.dense, weights: new Map(Object.entries(m.weights)), encoder: m.encoder, vector: Float32Array.from(m.vector.flat()), offset: m.offset }
})

/** Both sides must be this likely, or the lexicon must find a clearly positive and a clearly negative sentence. */
const MIXED_PROB = 0.3
const MIXED_SENTENCE = 0.3

export type SentimentDeps = {
  doc?: TextDoc
  /** The post's sentence vector (unit length, from the sentence encoder): the better model is used when given. */
  vector?: Float32Array | null
  model?: Model
  encoderModel?: EncoderModel
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

export const classifySentiment = (text: string, deps: SentimentDeps = {}): SentimentResult => {
  const doc = deps.doc ?? readText(text)
  const withVector = deps.vector != null && deps.vector.length > 0
  const model = withVector ? (deps.encoderModel ?? loadSentimentEncoderModel()) : (deps.model ?? loadSentimentModel())
  const f = sentimentFeatures(doc, deps.vectors ?? loadWordVectors())
  const z = [0, 0, 0]
  for (const s of f.sparse) {
    const w = model.weights.get(s)
    if (w) for (let k = 0; k < 3; k++) z[k] += w[k]
  }
  // The encoder model may read only the first cues of the dense part (its training chose how many).
  const dense = Math.min(f.dense.length, model.dense.length)
  for (let j = 0; j < dense; j++) {
    const x = j === 0 ? f.dense[j] : f.dense[j] * model.denseScale
    const w = model.dense[j]
    for (let k = 0; k < 3; k++) z[k] += w[k] * x
  }
  if (withVector && 'vector' in model) {
    const v = deps.vector!
    const W = model.vector
    if (v.length * 3 !== W.length) throw new Error(`sentiment: a ${v.length}-d vector, the model reads ${W.length / 3}-d (${model.encoder})`)
    for (let j = 0; j < v.length; j++) for (let k = 0; k < 3; k++) z[k] += W[j * 3 + k] * v[j]
    for (let k = 0; k < 3; k++) z[k] += model.offset[k]
  }
  return decideSentiment(softmax3(z), doc)
}

const round = (x: number) => Math.round(x * 1000) / 1000
