import type { SENTIMENTS } from '../../../src-shared/schemas/bookmarks.ts'
import { readText, type TextDoc } from './nlp.ts'
import { memoByDir, readResourceJson } from './resources.ts'
import { sentimentFeatures } from './sentiment-features.ts'
import { loadWordVectors, type WordVectors } from './word-vectors.ts'

export type Sentiment = (typeof SENTIMENTS)[number]
export type SentimentResult = { label: Sentiment; confidence: number; probabilities: { negative: number; neutral: number; positive: number } }

type ModelJson = { classes: string[]; denseScale: number; dense: number[][]; weights: Record<string, number[]> }
type Model = { denseScale: number; dense: number[][]; weights: Map<string, number[]> }

export const loadSentimentModel = memoByDir((dir): Model => {
  const m = readResourceJson<ModelJson>('sentiment-model.json', dir)
  if (m.classes.join() !== 'negative,neutral,positive') throw new Error('sentiment-model.json: unexpected classes')
  return { denseScale: m.denseScale, dense: m.dense, weights: new Map(Object.entries(m.weights)) }
})

/** Both sides must be this likely, or the lexicon must find a clearly positive and a clearly negative sentence. */
const MIXED_PROB = 0.3
const MIXED_SENTENCE = 0.3

export type SentimentDeps = { doc?: TextDoc; model?: Model; vectors?: WordVectors }

export const classifySentiment = (text: string, deps: SentimentDeps = {}): SentimentResult => {
  const doc = deps.doc ?? readText(text)
  const model = deps.model ?? loadSentimentModel()
  const f = sentimentFeatures(doc, deps.vectors ?? loadWordVectors())
  const z = [0, 0, 0]
  for (const s of f.sparse) {
    const w = model.weights.get(s)
    if (w) for (let k = 0; k < 3; k++) z[k] += w[k]
  }
  for (let j = 0; j < f.dense.length; j++) {
    const x = j === 0 ? f.dense[j] : f.dense[j] * model.denseScale
    const w = model.dense[j]
    for (let k = 0; k < 3; k++) z[k] += w[k] * x
  }
  const mx = Math.max(...z)
  const e = z.map((v) => Math.exp(v - mx))
  const sum = e[0] + e[1] + e[2]
  const [negative, neutral, positive] = e.map((v) => v / sum)
  const probabilities = { negative, neutral, positive }

  const s = doc.sentenceSentiments
  const lexiconBoth = s.some((v) => v >= MIXED_SENTENCE) && s.some((v) => v <= -MIXED_SENTENCE)
  if ((positive >= MIXED_PROB && negative >= MIXED_PROB) || (lexiconBoth && Math.abs(positive - negative) < 0.35 && neutral < 0.5)) {
    return { label: 'mixed', confidence: round(Math.min(1, positive + negative)), probabilities }
  }
  const best = positive >= negative && positive >= neutral ? 'positive' : negative >= neutral ? 'negative' : 'neutral'
  return { label: best, confidence: round(probabilities[best]), probabilities }
}

const round = (x: number) => Math.round(x * 1000) / 1000
