import { readdirSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ACTIONS, SENTIMENTS } from '../../src-shared/schemas/bookmarks.ts'
import { zPipelineEvent, type PipelineEvent } from '../../src-shared/schemas/pipeline.ts'
import { signedIn, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { importFile, readStream } from './helpers.ts'
import { describeIf } from '../support/skip.ts'
import { summaryFaults } from '../../bench/local-understanding.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

/** The "done": a fresh install, no AI configured, import the real exports, run, watch, inspect. */
describeIf(hasSharedFixtures, NEEDS_FIXTURES)('the local pipeline over the real fixture exports', () => {
  if (!hasSharedFixtures) console.warn('skipping: ../shared/fixtures is absent')
  let t: TestServer
  let admin: Client
  let events: PipelineEvent[]
  let contentType: string | null
  let ids: number[]

  beforeAll(async () => {
    t = await startTestServer()
    admin = await signedIn(t, 'admin')
    // No network here: work from alt text instead of downloading images; run the job by hand.
    expect((await admin.put('/api/settings', { fetchMedia: false, autoRunAfterImport: false })).status).toBe(200)
    const files = [
      ...readdirSync(sharedFixture('exports/graphql')).map((f) => sharedFixture('exports/graphql', f)),
      sharedFixture('exports/flat/x_bookmarks_fetchpy_excerpt.json'),
      sharedFixture('exports/derived/twillot_bookmarks.json'),
    ]
    for (const f of files) await importFile(admin, f)
    const start = await admin.post('/api/categorize', {})
    expect(start.status).toBe(200)
    expect(start.body.status).toBe('started')
    ;({ events, contentType } = await readStream(admin))
    ids = (sqliteOf(t.sheaf.db).prepare('SELECT id FROM bookmarks ORDER BY id').pluck().all() as number[])
  }, 240_000)
  afterAll(async () => t?.close())

  it('streams the four stages in order, then complete', () => {
    expect(contentType).toMatch(/^text\/event-stream/)
    for (const e of events) zPipelineEvent.parse(e)
    const order = ['entity_extraction', 'vision_analysis', 'semantic_tagging', 'categorization', 'complete']
    const seen = events.map((e) => order.indexOf(e.stage))
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
    expect(new Set(events.map((e) => e.stage))).toEqual(new Set(order))
    const last = events.at(-1)!
    expect(last).toEqual({ stage: 'complete', progress: 100, processed: ids.length, errors: 0 })
  })

  it('gives every post entities, tags, a summary (possibly empty), a sentiment, an action, related posts and categories', async () => {
    expect(ids.length).toBeGreaterThan(100)
    const entities = new Map((sqliteOf(t.sheaf.db).prepare('SELECT bookmark_id, entities FROM knowledge').all() as Array<{ bookmark_id: number; entities: string }>)
      .map((r) => [r.bookmark_id, JSON.parse(r.entities)]))
    let tagged = 0
    for (const id of ids) {
      const res = await admin.get(`/api/bookmarks/${id}`)
      expect(res.status).toBe(200)
      const k = res.body.knowledge
      expect(k, `post ${id}`).not.toBeNull()
      // A short post's summary may be empty (its words say it all); a summary never repeats its post.
      expect(typeof k.summary).toBe('string')
      expect(k.summary.length).toBeLessThanOrEqual(200)
      expect(summaryFaults(res.body.text, k.summary).repeats, `post ${id}: ${k.summary}`).toBe(false)
      // A picture or an emoji has nothing to tag: no "image" or "conversation" stands in for a subject.
      expect(k.tags.length).toBeLessThanOrEqual(5)
      for (const kind of ['image', 'video', 'conversation', 'note']) expect(k.tags).not.toContain(kind)
      if (k.tags.length > 0) tagged++
      expect(SENTIMENTS).toContain(k.sentiment)
      expect(ACTIONS).toContain(k.action)
      expect(k.confidence).toBeGreaterThanOrEqual(0)
      expect(k.relatedIds.length).toBeGreaterThan(0)
      expect(k.relatedIds).not.toContain(id)
      expect(Date.parse(k.analyzedAt)).not.toBeNaN()
      expect(res.body.categories.length).toBeGreaterThanOrEqual(1)
      expect(res.body.categories.length).toBeLessThanOrEqual(3)
      const e = entities.get(id)
      expect(e).toMatchObject({ hashtags: expect.any(Array), tools: expect.any(Array), people: expect.any(Array), kind: expect.any(String) })
      if (e.repos.length > 0) expect(k.ossReport).toMatchObject({ host: e.repos[0].host, owner: e.repos[0].owner, name: e.repos[0].name })
      else expect(k.ossReport).toBeNull()
    }
    expect(tagged / ids.length).toBeGreaterThanOrEqual(0.8)
  }, 120_000)

  it('stores a sentence vector per post with the model name, and tags in one vocabulary', () => {
    const n = sqliteOf(t.sheaf.db).prepare("SELECT count(*) FROM embeddings WHERE model = 'use-lite-512' AND dim = 512").pluck().get()
    expect(n).toBe(ids.length)
    const tags = sqliteOf(t.sheaf.db).prepare('SELECT name FROM tags').pluck().all() as string[]
    const lower = tags.map((x) => x.toLowerCase())
    expect(new Set(lower).size).toBe(tags.length)
  })

  it('runs incrementally: a second start has nothing left to do', async () => {
    const again = await admin.post('/api/categorize', {})
    expect(again.body).toMatchObject({ status: 'started', totalBookmarks: 0 })
    const { events: ev } = await readStream(admin)
    expect(ev.at(-1)).toEqual({ stage: 'complete', progress: 100, processed: 0, errors: 0 })
  })
})
