import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifySentiment } from '../../../src-main/ai/local/index.ts'
import { measureSentiment } from '../../../bench/local-sentiment.ts'
import { FIXTURES } from './fixture-posts.ts'
import { describeIf } from '../../support/skip.ts'

const TEST_SAMPLE = join(FIXTURES, 'labelled', 'sentiment_test_sample600_seed42.jsonl')

describe('classifySentiment', () => {
  it.each([
    ['I absolutely love this new release, it is fantastic! 😍', 'positive'],
    ['Thrilled to announce we won the award, thank you all!', 'positive'],
    ['This is terrible. Worst update ever, everything is broken 😡', 'negative'],
    ['So disappointing. You guys are clowns.', 'negative'],
    ['The meeting is scheduled for Tuesday at 3pm in room 4.', 'neutral'],
  ])('%s -> %s', (text, label) => {
    const r = classifySentiment(text)
    expect(r.label).toBe(label)
    expect(r.confidence).toBeGreaterThan(0.33)
    expect(r.confidence).toBeLessThanOrEqual(1)
  })

  it('says mixed when a text is clearly both', () => {
    expect(classifySentiment('I love the new design, it is beautiful. But the battery life is awful and it crashes constantly.').label).toBe('mixed')
  })

  it('gives probabilities that sum to one', () => {
    const p = classifySentiment('ok then').probabilities
    expect(p.negative + p.neutral + p.positive).toBeCloseTo(1, 5)
  })
})

describeIf(existsSync(TEST_SAMPLE), "needs the held-out TweetEval sample in ../shared/fixtures")('sentiment quality on the held-out TweetEval sample', () => {
  if (!existsSync(TEST_SAMPLE)) console.warn(`skipping: ${TEST_SAMPLE} not found`)
  it('reaches a macro-averaged recall of at least 0.55 (mixed counts as wrong)', () => {
    const r = measureSentiment(TEST_SAMPLE)
    expect(r.n).toBe(600)
    expect(r.macroRecall).toBeGreaterThanOrEqual(0.55)
  })
})
