import { afterAll, describe, expect, it } from 'vitest'
import { createEncoderHost, createModelThreadRunner, createWorkerRunner, type EnginePost } from '../../../src-main/ai/index.ts'
import { encoderOverPort } from '../../../src-main/ai/local/encoder-port.ts'
import { encoderPrecision } from '../../../src-main/ai/local/encoder-precision.ts'
import { loadModel, loadSentenceEncoder, sentenceEncoder } from '../../../src-main/ai/local/sentence-encoder.ts'

const cos = (x: Float32Array, y: Float32Array) => x.reduce((s, v, d) => s + v * y[d], 0)
const TEXTS = ['Tuning SQLite indexes for faster reads', 'Our toddler finally slept through the night']
const config = { existingTags: [], categories: [], examples: [] }

describe('the process\'s one sentence model', () => {
  const host = createEncoderHost()
  afterAll(async () => host.close())

  it('encodes a query as the questions\' model does in this thread', async () => {
    const questions = sentenceEncoder(await loadModel(encoderPrecision('query')))
    const [mine, theirs] = await Promise.all([questions.encode(TEXTS), host.encode(TEXTS)])
    expect(theirs).toHaveLength(2)
    expect(cos(mine[0], theirs[0])).toBeGreaterThan(0.9999)
    expect(cos(mine[1], theirs[1])).toBeGreaterThan(0.9999)
  })

  it('is the model a pipeline worker encodes with: the worker holds no copy of its own', async () => {
    const own = createEncoderHost()
    const runner = createWorkerRunner(config, { encoder: own })
    try {
      const [v] = await runner.encode([TEXTS[0]])
      expect(cos(v, (await (await loadSentenceEncoder()).encode([TEXTS[0]]))[0])).toBeGreaterThan(0.9999)
      expect(own.running).toBe(true)
      await own.close()
      // With the model's thread gone the worker has nothing to encode with.
      await expect(runner.encode([TEXTS[1]])).rejects.toThrow(/sentence model stopped/)
    } finally {
      await runner.close()
      await own.close()
    }
  }, 60_000)

  it('runs a runner\'s engine in the model\'s own thread, and starts it afresh after release()', async () => {
    const own = createEncoderHost()
    const runner = createModelThreadRunner(config, { encoder: own })
    const post: EnginePost = { id: 1, text: TEXTS[0], authorHandle: 'a', urls: [], media: [], inReplyToPostId: null, quoted: null, imageText: null }
    try {
      const [first] = await runner.semantic([{ post }])
      expect(cos(first.vector, (await (await loadSentenceEncoder()).encode([TEXTS[0]]))[0])).toBeGreaterThan(0.9999)
      expect(first.tags.length).toBeGreaterThan(0)
      await runner.release()
      expect((await runner.semantic([{ post }]))[0].summary).toBe(first.summary)
      await own.close()
      await expect(runner.semantic([{ post }])).rejects.toThrow(/thread stopped/)
    } finally {
      await runner.close()
      await own.close()
    }
  }, 60_000)

  it('answers a query while the model\'s thread analyses a job\'s posts, before that batch is done', async () => {
    const runner = createModelThreadRunner(config, { encoder: host })
    const posts: EnginePost[] = Array.from({ length: 300 }, (_, i) => ({
      id: i + 1, text: `Post ${i}: ${TEXTS[i % 2]}, and what we learnt from it`, authorHandle: 'a', urls: [], media: [], inReplyToPostId: null, quoted: null, imageText: null,
    }))
    try {
      const done: string[] = []
      const batch = runner.semantic(posts.map((post) => ({ post }))).then((r) => (done.push('batch'), r))
      await new Promise((r) => setTimeout(r, 50))
      const query = host.encode(['baby sleep']).then((v) => (done.push('query'), v))
      const [b] = await Promise.all([batch, query])
      expect(b).toHaveLength(300)
      expect(done).toEqual(['query', 'batch'])
    } finally {
      await runner.close()
    }
  }, 60_000)

  it('answers a query before the rest of a job\'s batch that was sent first', async () => {
    const lease = host.lease()
    const job = encoderOverPort(lease.port)
    try {
      const done: string[] = []
      const posts = Array.from({ length: 400 }, (_, i) => `Post number ${i} about ${i % 2 ? 'gardening and tomatoes' : 'databases and indexes'}`)
      const batch = job.encode(posts).then((v) => (done.push('batch'), v))
      await new Promise((r) => setTimeout(r, 30))
      const query = host.encode(['baby sleep']).then((v) => (done.push('query'), v))
      const [b, q] = await Promise.all([batch, query])
      expect(b).toHaveLength(400)
      expect(q).toHaveLength(1)
      expect(done).toEqual(['query', 'batch'])
    } finally {
      lease.port.close()
      lease.release()
    }
  }, 60_000)

  it('answers many queries asked at once during a job\'s batch before that batch, each with its own vector, bit for bit the one it has alone', async () => {
    const lease = host.lease()
    const job = encoderOverPort(lease.port)
    const questions = Array.from({ length: 24 }, (_, i) => `${['baby sleep', 'sqlite indexes', 'tomato seedlings'][i % 3]} question ${i}`)
    try {
      const done: string[] = []
      const posts = Array.from({ length: 400 }, (_, i) => `Post number ${i} about ${i % 2 ? 'gardening and tomatoes' : 'databases and indexes'}`)
      const batch = job.encode(posts).then((v) => (done.push('batch'), v))
      await new Promise((r) => setTimeout(r, 30))
      const queries = questions.map((q, i) => host.encode([q]).then((v) => (done.push(`query ${i}`), v)))
      const [b, ...together] = await Promise.all([batch, ...queries])
      expect(b).toHaveLength(400)
      expect(done.at(-1)).toBe('batch')
      expect(new Set(done).size).toBe(questions.length + 1)
      for (const [i, q] of questions.entries()) expect(together[i][0]).toEqual((await host.encode([q]))[0])
      expect(together[0][0]).not.toEqual(together[1][0])
    } finally {
      lease.port.close()
      lease.release()
    }
  }, 60_000)

  it('puts waiting queries before the job\'s model calls queued ahead of them', async () => {
    const lease = host.lease()
    const job = encoderOverPort(lease.port)
    try {
      const done: string[] = []
      // Thirty requests of eight posts: thirty model calls queued at once.
      const calls = Array.from({ length: 30 }, (_, c) => job.encode(Array.from({ length: 8 }, (_, i) => `Job call ${c}, post ${i} about sourdough and tomatoes`))
        .then(() => done.push(`job ${c}`)))
      while (done.length === 0) await new Promise((r) => setTimeout(r, 1))
      const queries = ['baby sleep', 'sqlite indexes', 'tomato seedlings'].map((q) => host.encode([q]).then(() => done.push(q)))
      await Promise.all([...calls, ...queries])
      // Queued behind the jobs' calls, the queries would come last; ahead of them they follow the call running when they came.
      expect(done.indexOf('baby sleep')).toBeLessThan(5)
      expect(done.indexOf('tomato seedlings')).toBeLessThan(5)
    } finally {
      lease.port.close()
      lease.release()
    }
  }, 60_000)

  it('lets the model go when nobody has used it for a while, and starts it again when asked', async () => {
    const brief = createEncoderHost({ idleMs: 50 })
    try {
      await brief.encode([TEXTS[0]])
      expect(brief.running).toBe(true)
      await new Promise((r) => setTimeout(r, 300))
      expect(brief.running).toBe(false)
      expect(await brief.encode([TEXTS[1]])).toHaveLength(1)
    } finally {
      await brief.close()
    }
  }, 60_000)

  it('keeps the model while a worker holds a lease, however long it is idle', async () => {
    const brief = createEncoderHost({ idleMs: 50 })
    const lease = brief.lease()
    try {
      await brief.encode([TEXTS[0]])
      await new Promise((r) => setTimeout(r, 300))
      expect(brief.running).toBe(true)
      lease.release()
      await new Promise((r) => setTimeout(r, 300))
      expect(brief.running).toBe(false)
    } finally {
      lease.port.close()
      await brief.close()
    }
  }, 60_000)
})
