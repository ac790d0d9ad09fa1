import type { TextDoc } from './nlp.ts'
import { EMOJI_RE } from './text.ts'
import { embedWords, type WordVectors } from './word-vectors.ts'

/**
 * Features for the sentiment model, shared by the training script and the classifier so both see
 * exactly the same thing: sparse word/bigram/emoji indicators (negation-marked) plus dense cues.
 */
export type SentimentFeatures = { sparse: string[]; dense: number[] }

export const DENSE_NAMES = [
  'bias', 'lexicon', 'lexiconMax', 'lexiconMin', 'exclaim', 'question', 'caps',
  'lexiconLast', 'positiveSentences', 'negativeSentences', 'lexiconSilent', 'negation', 'link', 'length',
] as const

/**
 * How the lexicon reads the sentences (the last one often carries the verdict: "…but it works"),
 * whether it finds nothing (news-like neutral posts), negation, a link, length (log words).
 */
const sentenceCues = (doc: TextDoc, words: number): number[] => {
  const s = doc.sentenceSentiments
  const n = Math.max(1, s.length)
  return [
    s.length ? s[s.length - 1] : 0,
    s.filter((v) => v > 0.05).length / n,
    s.filter((v) => v < -0.05).length / n,
    doc.sentiment === 0 ? 1 : 0,
    doc.tokens.some((t) => t.negated) ? 1 : 0,
    doc.tokens.some((t) => t.type === 'url') ? 1 : 0,
    Math.log1p(words) / 4,
  ]
}

const squash = (w: string) => w.replace(/(.)\1{2,}/g, '$1$1')

export const sentimentFeatures = (doc: TextDoc, vectors: WordVectors): SentimentFeatures => {
  const sparse = new Set<string>()
  const words: string[] = []
  let prev = '<s>'
  let exclaim = 0
  let question = 0
  let caps = 0
  let wordCount = 0
  for (const t of doc.tokens) {
    let f: string
    switch (t.type) {
      case 'url':
        f = '<url>'
        break
      case 'mention':
        f = '<user>'
        break
      case 'number':
      case 'ordinal':
        f = '<num>'
        break
      case 'hashtag':
        f = squash(t.normal.slice(1))
        words.push(f)
        break
      case 'emoji':
      case 'emoticon':
        f = t.normal
        break
      case 'punctuation':
        if (t.normal === '!') exclaim++
        if (t.normal === '?') question++
        prev = '<p>'
        continue
      case 'word':
        f = squash(t.normal)
        words.push(f)
        wordCount++
        break
      default:
        continue
    }
    const marked = t.negated ? `NOT_${f}` : f
    sparse.add(marked)
    if (prev !== '<p>') sparse.add(`${prev}|${marked}`)
    prev = marked
  }
  for (const e of doc.text.match(EMOJI_RE) ?? []) sparse.add(e)
  for (const w of doc.text.match(/\b[A-Z]{3,}\b/g) ?? []) if (w !== 'RT') caps++
  const s = doc.sentenceSentiments
  const dense = [
    1,
    doc.sentiment,
    s.length ? Math.max(0, ...s) : 0,
    s.length ? Math.min(0, ...s) : 0,
    Math.min(exclaim, 3) / 3,
    Math.min(question, 3) / 3,
    wordCount ? caps / wordCount : 0,
    ...sentenceCues(doc, wordCount),
    ...embedWords(words, vectors),
  ]
  return { sparse: [...sparse], dense }
}
