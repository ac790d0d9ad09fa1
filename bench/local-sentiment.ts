/**
 * Macro-averaged recall (the TweetEval metric) of the offline sentiment models on the 600-post test
 * sample, which neither model saw: the pipeline's (with the sentence encoder's vector of each text)
 * and the one callers without the encoder get (text features only). "mixed" counts as wrong. Prints JSON.
 *   node bench/local-sentiment.ts
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { classifySentiment, loadSentenceEncoder, readText } from '../src-main/ai/local/index.ts'

const file = join(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'labelled', 'sentiment_test_sample600_seed42.jsonl')
const CLASSES = ['negative', 'neutral', 'positive'] as const

type Row = { text: string; label_name: string }
const readRows = (path: string): Row[] => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row)

const score = (rows: Row[], labels: string[]) => {
  const confusion: Record<string, Record<string, number>> = {}
  for (const c of CLASSES) confusion[c] = { negative: 0, neutral: 0, positive: 0, mixed: 0 }
  rows.forEach((r, i) => confusion[r.label_name][labels[i]]++)
  const recall = Object.fromEntries(CLASSES.map((c) => [c, +(confusion[c][c] / Object.values(confusion[c]).reduce((a, b) => a + b, 0)).toFixed(4)]))
  const macroRecall = CLASSES.reduce((a, c) => a + recall[c], 0) / CLASSES.length
  const accuracy = CLASSES.reduce((a, c) => a + confusion[c][c], 0) / rows.length
  return { n: rows.length, macroRecall: +macroRecall.toFixed(4), accuracy: +accuracy.toFixed(4), recall, confusion }
}

/** The text-features model alone (no encoder): what a caller without a sentence vector gets. */
export const measureSentiment = (path = file) => {
  const rows = readRows(path)
  const t0 = performance.now()
  const labels = rows.map((r) => classifySentiment(r.text).label)
  const ms = performance.now() - t0
  return { ...score(rows, labels), textsPerSecond: Math.round(rows.length / (ms / 1000)) }
}

/** The pipeline's model: each text's sentence vector plus its text features. */
export const measureSentimentWithEncoder = async (path = file) => {
  const rows = readRows(path)
  const encoder = await loadSentenceEncoder()
  const t0 = performance.now()
  const vectors = await encoder.encode(rows.map((r) => r.text))
  const t1 = performance.now()
  const labels = rows.map((r, i) => classifySentiment(r.text, { doc: readText(r.text), vector: vectors[i] }).label)
  const t2 = performance.now()
  return { ...score(rows, labels), encoderTextsPerSecond: Math.round(rows.length / ((t1 - t0) / 1000)), classifierTextsPerSecond: Math.round(rows.length / ((t2 - t1) / 1000)) }
}

if (import.meta.main) {
  if (!existsSync(file)) {
    console.log(JSON.stringify({ skipped: `fixtures absent: ${file}` }))
  } else {
    const textOnly = measureSentiment()
    const withEncoder = await measureSentimentWithEncoder()
    console.log(JSON.stringify({ bench: 'local-sentiment', withEncoder, textOnly }, null, 2))
  }
}
