/**
 * Macro-averaged recall (the TweetEval metric) of the offline sentiment model on the 600-post test
 * sample, which the model never saw. "mixed" counts as wrong. Prints JSON.
 *   node bench/local-sentiment.ts
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { classifySentiment } from '../src-main/ai/local/index.ts'

const file = join(import.meta.dirname, '..', '..', 'shared', 'fixtures', 'labelled', 'sentiment_test_sample600_seed42.jsonl')

export const measureSentiment = (path = file) => {
  const rows = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { text: string; label_name: string })
  const classes = ['negative', 'neutral', 'positive']
  const confusion: Record<string, Record<string, number>> = {}
  for (const c of classes) confusion[c] = { negative: 0, neutral: 0, positive: 0, mixed: 0 }
  const t0 = performance.now()
  for (const r of rows) confusion[r.label_name][classifySentiment(r.text).label]++
  const ms = performance.now() - t0
  const recall = Object.fromEntries(classes.map((c) => [c, confusion[c][c] / Object.values(confusion[c]).reduce((a, b) => a + b, 0)]))
  const macroRecall = classes.reduce((a, c) => a + recall[c], 0) / classes.length
  const accuracy = classes.reduce((a, c) => a + confusion[c][c], 0) / rows.length
  return { n: rows.length, macroRecall: +macroRecall.toFixed(4), accuracy: +accuracy.toFixed(4), recall, confusion, textsPerSecond: Math.round(rows.length / (ms / 1000)) }
}

if (import.meta.main) {
  if (!existsSync(file)) {
    console.log(JSON.stringify({ skipped: `fixtures absent: ${file}` }))
  } else {
    console.log(JSON.stringify({ bench: 'local-sentiment', ...measureSentiment() }, null, 2))
  }
}
