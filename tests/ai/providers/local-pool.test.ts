import { afterAll, describe, expect, it } from 'vitest'
import { createInProcessRunner, createWorkerPool, type EnginePost } from '../../../src-main/ai/index.ts'

const TOPICS = [
  'Rust borrow checker and lifetimes explained with #rustlang examples from github.com/rust-lang/rust',
  'SQLite indexes made my queries ten times faster, see https://sqlite.org/queryplanner.html',
  'Growing tomatoes: full sun, deep watering twice a week, and a little compost',
  'Kubernetes operators in production: lessons from two years of on-call with @kelsey',
]
const posts: EnginePost[] = Array.from({ length: 80 }, (_, i) => ({
  id: i + 1, text: `${TOPICS[i % TOPICS.length]} (note ${i})`, authorHandle: `user${i % 5}`, urls: [], media: [],
  inReplyToPostId: null, quoted: null, imageText: null,
}))
const config = {
  existingTags: ['rust', 'databases'],
  categories: [
    { id: 1, slug: 'dev-tools', name: 'Dev Tools', description: 'Programming, databases, infrastructure' },
    { id: 2, slug: 'gardening', name: 'Gardening', description: 'Plants, vegetables, gardens' },
  ],
  examples: [],
}

describe('local worker pool', () => {
  const pool = createWorkerPool(config, 2)
  const single = createInProcessRunner(config)
  afterAll(async () => pool.close())

  it('splits per-post work over two workers and answers exactly as one engine does, in order', async () => {
    const [a, b] = await Promise.all([pool.entities(posts), single.entities(posts)])
    expect(a.map((r) => r.id)).toEqual(posts.map((p) => p.id))
    expect(a).toEqual(b)

    const items = posts.map((p) => ({ post: p, entities: b.find((r) => r.id === p.id)!.entities }))
    const [sa, sb] = await Promise.all([pool.semantic(items), single.semantic(items)])
    expect(sa.map((r) => r.id)).toEqual(posts.map((p) => p.id))
    expect(sa.map((r) => r.summary)).toEqual(sb.map((r) => r.summary))
    // The encoder groups texts by length into batches, so the two splits pad differently: same vectors to float rounding.
    const cos = (x: Float32Array, y: Float32Array) => x.reduce((s, v, d) => s + v * y[d], 0)
    expect(Math.min(...sa.map((r, i) => cos(r.vector, sb[i].vector)))).toBeGreaterThan(0.9999)
    expect(sa.find((r) => r.id === 3)!.tags.length).toBeGreaterThan(0)

    const cat = posts.map((p, i) => ({ id: p.id, post: p, entities: items[i].entities, tags: sb[i].tags, vector: sb[i].vector }))
    const [ca, cb] = await Promise.all([pool.categorize(cat), single.categorize(cat)])
    expect(ca).toEqual(cb)
    expect(ca.find((r) => r.id === 3)!.categories[0]?.categoryId).toBe(2)

    const dim = sb[0].vector.length
    const vectors = new Float32Array(posts.length * dim)
    sb.forEach((r, i) => vectors.set(r.vector, i * dim))
    const input = { ids: posts.map((p) => p.id), dim, vectors, keys: posts.map(() => []) }
    await Promise.all([pool.relatedBuild(input), single.relatedBuild(input)])
    const ids = posts.map((p) => p.id)
    const [ra, rb] = await Promise.all([pool.related(ids, 5), single.related(ids, 5)])
    expect(ra).toEqual(rb)
    expect(ra[0].length).toBeGreaterThan(0)
  })
})
