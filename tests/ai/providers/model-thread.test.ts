import { beforeAll, describe, expect, it } from 'vitest'
import { gathered, modelKept, precisionServing, QUERY_CALL } from '../../../src-main/ai/providers/model-thread.ts'
import { loadModel } from '../../../src-main/ai/local/sentence-encoder.ts'
import type { EmbedBatch } from '../../../src-main/ai/local/use-lite-onnx.ts'

const QUESTIONS = Array.from({ length: QUERY_CALL + 4 }, (_, i) => `${['sourdough starter', 'rust async runtimes', 'toddler sleep', 'index tuning in sqlite'][i % 4]} ${i}`)

describe('queries gathered into shared model calls (the real model)', () => {
  let model: EmbedBatch
  beforeAll(async () => {
    model = await loadModel()
  }, 60_000)

  /** One model call at a time, in order, as the model's thread has it; `calls` counts the texts of each. */
  const serial = () => {
    let last: Promise<void> = Promise.resolve()
    const calls: number[] = []
    const inTurn = (work: () => Promise<void>) => (last = last.then(work))
    const embed: EmbedBatch = (texts) => {
      calls.push(texts.length)
      return model(texts)
    }
    return { encode: gathered(inTurn, embed), calls }
  }

  it('runs what is asked together as one call of up to QUERY_CALL texts, each text with its own vector, bit for bit the one it has alone', async () => {
    const { encode, calls } = serial()
    const together = await Promise.all(QUESTIONS.map((q) => encode([q])))
    expect(calls).toEqual([QUERY_CALL, QUESTIONS.length - QUERY_CALL])
    for (const [i, q] of QUESTIONS.entries()) {
      expect(together[i]).toHaveLength(1)
      expect(together[i][0]).toEqual((await model([q]))[0])
    }
    // Distinct questions, distinct vectors: a swap between them would not pass the check above.
    expect(together[0][0]).not.toEqual(together[1][0])
  })

  it('keeps a request of several texts whole and in order inside a shared call', async () => {
    const { encode, calls } = serial()
    const [a, b] = await Promise.all([encode(QUESTIONS.slice(0, 3)), encode(QUESTIONS.slice(3, 5))])
    expect(calls).toEqual([5])
    expect(a).toEqual(await model(QUESTIONS.slice(0, 3)))
    expect(b).toEqual(await model(QUESTIONS.slice(3, 5)))
  })

  it('goes at once when nothing else waits, and gathers what arrives while a call runs', async () => {
    const { encode, calls } = serial()
    const first = encode([QUESTIONS[0]])
    while (calls.length === 0) await new Promise((go) => setImmediate(go))
    // The first call has its texts now; these three wait for the next, together.
    const rest = QUESTIONS.slice(1, 4).map((q) => encode([q]))
    await Promise.all([first, ...rest])
    expect(calls).toEqual([1, 3])
  })

  it('fails each request of a call that fails, and serves the next ones', async () => {
    let fail = true
    let last: Promise<void> = Promise.resolve()
    const encode = gathered((work) => (last = last.then(work)), (texts) => (fail ? Promise.reject(new Error('model gone')) : model(texts)))
    const asked = [encode([QUESTIONS[0]]), encode([QUESTIONS[1]])]
    for (const a of asked) await expect(a).rejects.toThrow('model gone')
    fail = false
    expect(await encode([QUESTIONS[2]])).toEqual(await model([QUESTIONS[2]]))
  })
})

describe('which model the model thread keeps loaded', () => {
  it('keeps only the questions\' int8 model with no job, and only the posts\' fp32 one while a job runs', () => {
    const env = {}
    expect(modelKept(0, env)).toBe('int8')
    expect(precisionServing('query', 0, env)).toBe('int8')
    for (const jobs of [1, 3]) {
      expect(modelKept(jobs, env)).toBe('fp32')
      expect(precisionServing('query', jobs, env)).toBe('fp32')
      expect(precisionServing('batch', jobs, env)).toBe('fp32')
    }
  })

  it('keeps the fp32 model alone, job or not, with SHEAF_ENCODER_INT8=off', () => {
    const env = { SHEAF_ENCODER_INT8: 'off' }
    expect([modelKept(0, env), modelKept(1, env)]).toEqual(['fp32', 'fp32'])
  })
})
