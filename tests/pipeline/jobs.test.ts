import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { zPipelineEvent } from '../../src-shared/schemas/pipeline.ts'
import { assignCategory, unassignCategory } from '../../src-main/store/queries/categories.ts'
import { fakeOpenAi, goodAnalysis, postsInPrompt, type FakeServer } from '../ai/providers/fake-servers.ts'
import { signedIn, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { importFile, readStream, waitFor } from './helpers.ts'
import { describeIf } from '../support/skip.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

const FILE = sharedFixture('exports/graphql/twscrape_raw_search.json')
const count = (t: TestServer, sql: string, ...args: unknown[]) => sqliteOf(t.sheaf.db).prepare(sql).pluck().get(...args) as number

async function library(t: TestServer): Promise<Client> {
  const admin = await signedIn(t, 'admin', `admin-${Math.random().toString(36).slice(2)}@example.com`)
  await admin.put('/api/settings', { fetchMedia: false, autoRunAfterImport: false })
  await importFile(admin, FILE)
  return admin
}

const useFake = (admin: Client, fake: FakeServer) =>
  admin.put('/api/settings', { provider: 'openai', target: 'openai', baseUrl: fake.url, model: 'gpt-4o-mini' })

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('pipeline jobs', () => {
  let fake: FakeServer
  const servers: TestServer[] = []
  const open = async (opts: Parameters<typeof startTestServer>[0] = {}) => {
    const t = await startTestServer({ pipelineBatchScale: 0.05, ...opts })
    servers.push(t)
    return t
  }
  beforeAll(async () => {
    fake = await fakeOpenAi()
  })
  afterEach(async () => {
    fake.script = null
    for (const t of servers.splice(0)) await t.close()
  })
  afterAll(async () => fake.close())

  it('answers a second start with the running job, streams the current state to a late client, and keeps finished work on cancel', async () => {
    const t = await open()
    const admin = await library(t)
    const member = await signedIn(t, 'member')
    const viewer = await signedIn(t, 'viewer')
    await useFake(admin, fake)
    const from = fake.requests.length
    // The first provider call answers; the second hangs, holding the job inside semantic_tagging.
    fake.script = (r, n) => (n - from >= 2 ? 'hang' : undefined)
    const first = await member.post('/api/categorize', {})
    expect(first.body).toMatchObject({ status: 'started', totalBookmarks: 20 })
    await waitFor(() => fake.requests.length - from >= 2)

    const second = await admin.post('/api/categorize', {})
    expect(second.body).toEqual({ jobId: first.body.jobId, status: 'running', totalBookmarks: 20 })
    expect((await viewer.post('/api/categorize', {})).status).toBe(403)

    const seen: unknown[] = []
    const stream = readStream(viewer, { onEvent: (e) => seen.push(e) })
    await waitFor(() => seen.length >= 1)
    expect(seen[0]).toEqual({ stage: 'semantic_tagging', progress: 62.5, current: 10, total: 20 })
    expect(count(t, 'SELECT count(*) FROM knowledge')).toBe(10)

    const cancel = await member.post('/api/categorize/cancel', {})
    expect(cancel.status).toBe(200)
    const { events } = await stream
    expect(events.at(-1)).toEqual({ stage: 'complete', progress: 100, processed: 0, errors: 0 })
    const job = (await viewer.get('/api/categorize')).body.job
    expect(job).toMatchObject({ jobId: first.body.jobId, status: 'cancelled', processed: 0 })
    expect(count(t, 'SELECT count(*) FROM knowledge')).toBe(10)
    expect(count(t, 'SELECT count(*) FROM job_items WHERE job_id = ? AND done_stage >= 3', first.body.jobId)).toBe(10)
    expect(job.tokensIn).toBeGreaterThan(0)
  })

  it('queues a forced run asked for during the automatic run after an import, says so, and runs it after', async () => {
    const t = await open()
    const admin = await signedIn(t, 'admin', 'queue@example.com')
    await admin.put('/api/settings', { fetchMedia: false, autoRunAfterImport: true })
    await useFake(admin, fake)
    const from = fake.requests.length
    fake.script = (r, n) => (n - from >= 2 ? 'hang' : undefined)
    await importFile(admin, FILE)
    await waitFor(() => fake.requests.length - from >= 2)
    const auto = (await admin.get('/api/categorize')).body.job
    expect(auto).toMatchObject({ status: 'running', force: false })

    const forced = await admin.post('/api/categorize', { force: true })
    expect(forced.status).toBe(200)
    expect(forced.body).toEqual({
      jobId: auto.jobId, status: 'queued', totalBookmarks: 20,
      message: `Redoing all posts will start as soon as the automatic run after an import (job ${auto.jobId.slice(0, 8)}) finishes.`,
    })
    // Asked twice, queued once; the answer for the current job says a run waits after it.
    expect((await admin.post('/api/categorize', { force: true })).body.status).toBe('queued')
    expect((await admin.get('/api/categorize')).body).toMatchObject({ job: { jobId: auto.jobId, status: 'running' }, next: 1 })

    fake.script = null
    const seen: unknown[] = []
    const stream = readStream(admin, { onEvent: (e) => seen.push(e) })
    await waitFor(() => seen.length >= 1)
    expect((await admin.post('/api/categorize/cancel', { jobId: auto.jobId })).status).toBe(200)
    // The stream goes straight on with the queued run and ends with its figures, not the cancelled run's.
    const { events } = await stream
    expect(events.filter((e) => e.stage === 'complete')).toEqual([{ stage: 'complete', progress: 100, processed: 20, errors: 0 }])
    expect(events.at(-1)?.stage).toBe('complete')
    const next = await waitFor(async () => {
      const j = (await admin.get('/api/categorize')).body.job
      return j.jobId !== auto.jobId && j.status === 'completed' ? j : null
    })
    expect(next).toMatchObject({ force: true, totalBookmarks: 20, processed: 20 })
    expect(count(t, 'SELECT count(*) FROM jobs')).toBe(2)
    expect(count(t, 'SELECT count(*) FROM knowledge')).toBe(20)
  })

  it('resumes an interrupted job after a restart without redoing finished posts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-resume-'))
    try {
      const t1 = await startTestServer({ dataDir, pipelineBatchScale: 0.05 })
      const admin = await library(t1)
      await useFake(admin, fake)
      const from = fake.requests.length
      fake.script = (r, n) => (n - from >= 2 ? 'hang' : undefined)
      const { jobId } = (await admin.post('/api/categorize', {})).body
      await waitFor(() => fake.requests.length - from >= 2)
      const doneBefore = sqliteOf(t1.sheaf.db).prepare('SELECT bookmark_id FROM knowledge ORDER BY bookmark_id').pluck().all() as number[]
      expect(doneBefore).toHaveLength(10)
      await t1.close()

      fake.script = null
      const after = fake.requests.length
      const t2 = await startTestServer({ dataDir, pipelineBatchScale: 0.05 })
      servers.push(t2)
      await t2.sheaf.pipeline.idle()
      expect(t2.sheaf.pipeline.current()).toMatchObject({ jobId, status: 'completed', processed: 20, errors: 0 })
      const asked = fake.requests.slice(after).filter((r) => r.path === '/v1/chat/completions')
        .flatMap((r) => postsInPrompt(r.body.messages[1].content).map((p) => p.id))
      expect(asked).toHaveLength(10)
      for (const id of doneBefore) expect(asked).not.toContain(id)
      expect(count(t2, 'SELECT count(*) FROM knowledge')).toBe(20)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('falls back to the local models for a post the provider got wrong, records it, and retries it', async () => {
    const t = await open()
    const admin = await library(t)
    await useFake(admin, fake)
    const target = count(t, 'SELECT min(id) FROM bookmarks')
    fake.script = (r) => {
      if (r.path !== '/v1/chat/completions') return undefined
      const posts = postsInPrompt(r.body.messages[1].content)
      if (!posts.length) return undefined
      const reply = goodAnalysis(posts)
      for (const p of reply.posts) if (p.id === target) (p as { sentiment: string }).sentiment = 'ecstatic'
      return { status: 200, body: JSON.stringify({ choices: [{ message: { content: JSON.stringify(reply) }, finish_reason: 'stop' }], usage: { prompt_tokens: 10, completion_tokens: 5 } }) }
    }
    const { jobId } = (await admin.post('/api/categorize', {})).body
    await t.sheaf.pipeline.idle()
    const job = (await admin.get(`/api/categorize/${jobId}`)).body.job
    expect(job).toMatchObject({ status: 'completed', processed: 20, errors: 1, provider: 'openai' })
    const errors = (await admin.get(`/api/categorize/${jobId}/errors`)).body.errors
    expect(errors).toEqual([expect.objectContaining({ bookmarkId: target, stage: 'semantic_tagging', fellBack: true })])
    const mine = (await admin.get(`/api/bookmarks/${target}`)).body
    expect(mine.knowledge.summary).not.toMatch(/^Remote summary/)
    const other = (await admin.get(`/api/bookmarks/${target + 1}`)).body
    expect(other.knowledge).toMatchObject({ summary: `Remote summary of post ${target + 1}`, sentiment: 'positive', action: 'reference' })
    expect(other.knowledge.tags).toEqual(expect.arrayContaining(['testing']))
    expect(other.categories.map((c: { slug: string }) => c.slug)).toContain('programming')

    fake.script = null
    const retry = await admin.post('/api/categorize/retry', { jobId })
    expect(retry.body).toMatchObject({ status: 'started', totalBookmarks: 1 })
    await t.sheaf.pipeline.idle()
    expect((await admin.get(`/api/bookmarks/${target}`)).body.knowledge.summary).toBe(`Remote summary of post ${target}`)
    expect((await admin.get(`/api/categorize/${retry.body.jobId}/errors`)).body.errors).toEqual([])
  })

  it('keeps the categories a person set and never re-adds ones they removed', async () => {
    const t = await open()
    const admin = await library(t)
    await admin.post('/api/categorize', {})
    await t.sheaf.pipeline.idle()
    const db = t.sheaf.db
    const id = count(t, 'SELECT min(bookmark_id) FROM bookmark_categories')
    const picked = sqliteOf(db).prepare("SELECT category_id FROM bookmark_categories WHERE bookmark_id = ? AND assigned_by = 'pipeline'").pluck().all(id) as number[]
    const other = sqliteOf(db).prepare('SELECT id FROM categories WHERE id NOT IN (SELECT value FROM json_each(?)) LIMIT 1').pluck().get(JSON.stringify(picked)) as number
    unassignCategory(db, id, picked[0], Date.now())
    assignCategory(db, id, other, 'user', Date.now())
    const again = await admin.post('/api/categorize', { bookmarkIds: [id], force: true })
    expect(again.body.totalBookmarks).toBe(1)
    await t.sheaf.pipeline.idle()
    const rows = sqliteOf(db).prepare('SELECT category_id AS c, assigned_by AS by FROM bookmark_categories WHERE bookmark_id = ?').all(id) as Array<{ c: number; by: string }>
    expect(rows).toContainEqual({ c: other, by: 'user' })
    expect(rows.map((r) => r.c)).not.toContain(picked[0])
    expect(rows.length).toBeLessThanOrEqual(3)
  })

  it('streams stage events whose shape matches the spec, and answers JSON without the Accept header', async () => {
    const t = await open()
    const admin = await library(t)
    expect((await admin.get('/api/categorize')).body).toEqual({ job: null, next: 0 })
    await admin.post('/api/categorize', {})
    const { events } = await readStream(admin)
    for (const e of events) {
      zPipelineEvent.parse(e)
      expect(Object.keys(e).sort()).toEqual(e.stage === 'complete' ? ['errors', 'processed', 'progress', 'stage'] : ['current', 'progress', 'stage', 'total'])
    }
    const progress = events.map((e) => e.progress)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    // Small batches: several progress events per stage.
    expect(events.filter((e) => e.stage === 'semantic_tagging').length).toBeGreaterThan(2)
    await t.sheaf.pipeline.idle()
    const after = await readStream(admin)
    expect(after.events).toEqual([{ stage: 'complete', progress: 100, processed: 20, errors: 0 }])
  })
})
