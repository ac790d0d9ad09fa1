import { createRequire } from 'node:module'
import type winkNLP from 'wink-nlp'
import type model from 'wink-eng-lite-web-model'

// Loaded on first use: the server's main thread imports this folder for word vectors only.
const require = createRequire(import.meta.url)

/** What the analysers need from one wink-nlp pass over a text. Computed once, shared by all of them. */
export type TextDoc = {
  text: string
  /** Lowercased token text (wink's `normal`), wink's token type, part of speech (UD tags), and whether a negation governs it. */
  tokens: Array<{ normal: string; type: string; pos: string; negated: boolean }>
  /** wink's lexicon sentiment for the whole text, -1..1 */
  sentiment: number
  /** per-sentence lexicon sentiment, for "mixed" evidence */
  sentenceSentiments: number[]
}

type Wink = ReturnType<typeof winkNLP>
let wink: Wink | undefined
// wink's model is a read-only table (~2 MB): one per process, built on first use.
const getWink = (): Wink =>
  (wink ??= (require('wink-nlp') as typeof winkNLP)(require('wink-eng-lite-web-model') as typeof model, ['sbd', 'negation', 'sentiment', 'pos']))

export const readText = (text: string): TextDoc => {
  const nlp = getWink()
  const its = nlp.its
  const doc = nlp.readDoc(text)
  const tokens = doc.tokens()
  const normals = tokens.out(its.normal) as string[]
  const types = tokens.out(its.type) as string[]
  const negs = tokens.out(its.negationFlag) as unknown as boolean[]
  const pos = tokens.out(its.pos) as string[]
  return {
    text,
    tokens: normals.map((normal, i) => ({ normal, type: types[i], pos: pos[i], negated: negs[i] })),
    sentiment: doc.out(its.sentiment) as unknown as number,
    sentenceSentiments: doc.sentences().out(its.sentiment) as unknown as number[],
  }
}
