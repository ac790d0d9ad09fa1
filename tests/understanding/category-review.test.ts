import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zCategoryReview } from '../../src-shared/schemas/categories.ts'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { sheafExport } from '../search/sheaf-export.ts'
import { importFile, readStream } from '../pipeline/helpers.ts'

const GARDEN = [
  'Tomatoes and basil are doing great this week, harvest soon',
  'Harvested tomatoes today from the backyard beds',
  'Basil and tomatoes are the best pair in summer',
]
const OTHER = [
  'The new electric hatchback has 400 km of range and fast charging',
  'Changed the oil and rotated the tyres on the old pickup this weekend',
  'A slow-cooked ragu: onions, carrots, celery, wine and three hours',
  'Sourdough starter finally bubbly after a week of feeding',
  'Quarterly earnings beat expectations as revenue grew 12 percent',
  'Just finished a 10k run in the rain, legs are done',
]

describe('categories learn from the household, and the least sure are listed for review', () => {
  let t: TestServer
  let admin: Client
  let member: Client
  let viewer: Client
  const idOf = new Map<string, number>()

  beforeAll(async () => {
    t = await startTestServer()
    admin = await signedIn(t, 'admin')
    member = await signedIn(t, 'member')
    viewer = await signedIn(t, 'viewer')
    expect((await admin.put('/api/settings', { fetchMedia: false, autoRunAfterImport: false })).status).toBe(200)
    for (const c of (await admin.get('/api/categories')).body.categories) await admin.delete(`/api/categories/${c.id}`)
    for (const [name, description] of [
      ['Garden', 'Plants, flowers, vegetables and growing things outdoors.'],
      ['Cars', 'Cars, driving, engines and vehicles.'],
      ['Cooking', 'Recipes, food, baking and meals at home.'],
      ['Money', 'Markets, companies, earnings and personal finance.'],
      ['Fitness', 'Running, workouts, sport and health.'],
    ]) expect((await admin.post('/api/categories', { name, description })).status).toBe(201)
    const texts = [...GARDEN, ...OTHER]
    const file = join(mkdtempSync(join(tmpdir(), 'sheaf-review-')), 'posts.json')
    writeFileSync(file, sheafExport(texts.map((text, i) => ({ postId: String(8100 + i), text, handle: 'home', at: Date.UTC(2025, 1, 1 + i) }))))
    await importFile(admin, file)
    await admin.post('/api/categorize', {})
    await readStream(admin)
    for (const b of (await admin.get('/api/bookmarks?limit=100')).body.bookmarks) idOf.set(b.text, b.id)
  }, 180_000)
  afterAll(async () => t?.close())

  const categoriesOf = async (text: string) => (await member.get(`/api/bookmarks/${idOf.get(text)}`)).body.categories as Array<{ slug: string; assignedBy: string; confidence: number }>

  it('places posts by meaning, saying who placed them and how sure it was', async () => {
    const garden = await categoriesOf(GARDEN[0])
    expect(garden[0]).toMatchObject({ slug: 'garden', assignedBy: 'pipeline' })
    expect(garden[0].confidence).toBeGreaterThan(0)
    expect((await categoriesOf(OTHER[0]))[0].slug).toBe('cars')
  })

  it('lists assignments below the threshold, least sure first, to members and admins only', async () => {
    expect((await viewer.get('/api/categories/review')).status).toBe(403)
    const res = await member.get('/api/categories/review?limit=100')
    expect(res.status).toBe(200)
    const review = zCategoryReview.parse(res.body)
    expect(review.total).toBeGreaterThan(0)
    expect(review.total).toBe(review.items.length)
    const confidences = review.items.map((i) => i.category.confidence!)
    expect(confidences).toEqual([...confidences].sort((a, b) => a - b))
    for (const i of review.items) {
      expect(i.category.assignedBy).toBe('pipeline')
      expect(i.category.confidence).toBeLessThan(review.threshold)
    }
    // An independent count: every pipeline assignment under the threshold, read from the posts themselves.
    let below = 0
    for (const id of idOf.values()) {
      for (const c of (await member.get(`/api/bookmarks/${id}`)).body.categories) if (c.assignedBy === 'pipeline' && c.confidence < review.threshold) below++
    }
    expect(review.total).toBe(below)
    expect((await member.get('/api/categories/review?limit=0')).status).toBe(400)
  })

  it('re-places the other posts in the background once a person corrects two', async () => {
    // The household files its vegetable posts under Cars (their choice); the third follows without being touched.
    for (const text of GARDEN.slice(1)) expect((await member.put(`/api/bookmarks/${idOf.get(text)}/categories`, { slugs: ['cars'] })).status).toBe(200)
    await t.sheaf.pipeline.idle()
    const third = await categoriesOf(GARDEN[0])
    expect(third[0]).toMatchObject({ slug: 'cars', assignedBy: 'pipeline' })
    expect((await categoriesOf(GARDEN[1])).map((c) => c.slug)).toEqual(['cars'])
    const { rescoring } = (await member.get('/api/categories/review')).body
    expect(rescoring).toEqual({ running: false, done: idOf.size, total: idOf.size })
  })
})
