import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { importFile } from '../pipeline/helpers.ts'
import { signedIn, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { describeIf } from '../support/skip.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

/** vision_analysis against a loopback media server (private fetching switched on for the test). */
describeIf(hasSharedFixtures, NEEDS_FIXTURES)('vision_analysis and the media cache', () => {
  let t: TestServer
  let admin: Client
  let media: Server
  let base: string
  let png: Buffer
  let broken = -1
  let held = -1
  const holding: Array<() => void> = []
  const hits = new Map<string, number>()

  beforeAll(async () => {
    png = await sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="160"><rect width="100%" height="100%" fill="white"/>
      <text x="20" y="100" font-family="sans-serif" font-size="64" fill="black">HELLO SHEAF</text></svg>`)).png().toBuffer()
    media = createServer((req, res) => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1)
      const id = Number(/\/img\/(\d+)\.png/.exec(req.url!)?.[1])
      if (!id || id === broken) return res.writeHead(404).end()
      if (id === held) return void holding.push(() => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png))
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(png)
    })
    await new Promise<void>((r) => media.listen(0, '127.0.0.1', () => r()))
    base = `http://127.0.0.1:${(media.address() as AddressInfo).port}`
    t = await startTestServer()
    admin = await signedIn(t, 'admin')
    await admin.put('/api/settings', { autoRunAfterImport: false, allowPrivateMediaFetch: true })
    await importFile(admin, sharedFixture('exports/graphql/twscrape_raw_search.json'))
    // Point the posts' media at the loopback server; keep only the first three posts' media.
    const db = sqliteOf(t.sheaf.db)
    db.prepare('DELETE FROM media WHERE bookmark_id > (SELECT min(bookmark_id) + 2 FROM media)').run()
    db.prepare("UPDATE media SET url = ? || '/img/' || id || '.png', thumbnail_url = ? || '/img/' || id || '.png'").run(base, base)
    broken = db.prepare('SELECT max(id) FROM media').pluck().get() as number
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await new Promise<void>((r) => media.close(() => r()))
  })

  it('fetches each image once into the cache, thumbnails and OCRs it, and records a failed fetch as a post error', async () => {
    const { jobId } = (await admin.post('/api/categorize', {})).body
    await t.sheaf.pipeline.idle()
    const rows = sqliteOf(t.sheaf.db).prepare('SELECT id, bookmark_id AS b, cache_path AS cache, thumb_path AS thumb, ocr_text AS ocr, visual_tags AS tags, fetch_error AS err FROM media ORDER BY id').all() as Array<Record<string, any>>
    expect(rows.length).toBeGreaterThan(1)
    for (const r of rows.filter((x) => x.id !== broken)) {
      expect(r.cache).toMatch(/^[a-f0-9]{32}\.png$/)
      expect(r.thumb).toMatch(/\.thumb\.webp$/)
      expect(r.ocr).toMatch(/HELLO/i)
      expect(JSON.parse(r.tags).length).toBeGreaterThan(0)
    }
    const bad = rows.find((x) => x.id === broken)!
    expect(bad.err).toMatch(/HTTP 404/)
    const errors = (await admin.get(`/api/categorize/${jobId}/errors`)).body.errors
    expect(errors).toEqual([expect.objectContaining({ bookmarkId: bad.b, stage: 'vision_analysis', fellBack: false })])
    expect((await admin.get('/api/categorize')).body.job).toMatchObject({ status: 'completed', errors: 1 })
    // OCR text reaches the search document.
    expect(sqliteOf(t.sheaf.db).prepare("SELECT count(*) FROM search_fts WHERE search_fts MATCH 'sheaf'").pluck().get()).toBeGreaterThan(0)

    broken = -1
    const before = [...hits.values()].reduce((a, b) => a + b, 0)
    const retry = await admin.post('/api/categorize/retry', { jobId })
    expect(retry.body).toMatchObject({ status: 'started', totalBookmarks: 1 })
    await t.sheaf.pipeline.idle()
    const fixed = sqliteOf(t.sheaf.db).prepare('SELECT cache_path, fetch_error FROM media WHERE id = ?').get(bad.id) as Record<string, unknown>
    expect(fixed).toMatchObject({ fetch_error: null })
    expect(fixed.cache_path).toBeTruthy()
    // Only the previously broken image of that post was fetched again; the rest came from the cache.
    expect([...hits.values()].reduce((a, b) => a + b, 0) - before).toBeLessThanOrEqual(rows.filter((r) => r.b === bad.b).length)
  }, 120_000)

  it('serves cached images and thumbnails with their content type, behind the session', async () => {
    const id = sqliteOf(t.sheaf.db).prepare('SELECT min(id) FROM media WHERE cache_path IS NOT NULL').pluck().get() as number
    const viewer = await signedIn(t, 'viewer')
    const full = await fetch(`${t.url}/api/media/${id}`, { headers: { cookie: viewer.cookie! } })
    expect(full.status).toBe(200)
    expect(full.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await full.arrayBuffer()).equals(png)).toBe(true)
    const thumb = await fetch(`${t.url}/api/media/${id}/thumb`, { headers: { cookie: viewer.cookie! } })
    expect(thumb.headers.get('content-type')).toBe('image/webp')
    expect((await fetch(`${t.url}/api/media/${id}`)).status).toBe(401)
    expect((await viewer.get('/api/media/999999')).status).toBe(404)
    const detail = (await viewer.get(`/api/bookmarks/${sqliteOf(t.sheaf.db).prepare('SELECT bookmark_id FROM media WHERE id = ?').pluck().get(id)}`)).body
    expect(detail.media.some((m: { localUrl: string | null }) => m.localUrl === `/api/media/${id}`)).toBe(true)
  })

  it('writes a batch\'s errors with the batch: none while it is still in flight, each once when it is written', async () => {
    const db = sqliteOf(t.sheaf.db)
    db.prepare("UPDATE media SET url = url || '?again', thumbnail_url = thumbnail_url || '?again', cache_path = NULL, thumb_path = NULL, fetch_error = NULL").run()
    const ids = db.prepare('SELECT id FROM media ORDER BY id').pluck().all() as number[]
    ;[broken, held] = [ids[0], ids.at(-1)!]
    const { jobId } = (await admin.post('/api/categorize', { force: true })).body
    await expect.poll(() => holding.length > 0 && hits.has(`/img/${broken}.png?again`), { timeout: 30_000 }).toBe(true)
    // the 404 has been answered; its batch is still waiting for the held image
    await new Promise((r) => setTimeout(r, 300))
    expect(db.prepare('SELECT count(*) FROM job_errors WHERE job_id = ?').pluck().get(jobId)).toBe(0)
    expect(db.prepare('SELECT count(*) FROM media WHERE fetch_error IS NOT NULL').pluck().get()).toBe(0)
    holding.splice(0).forEach((release) => release())
    await t.sheaf.pipeline.idle()
    const errors = (await admin.get(`/api/categorize/${jobId}/errors`)).body.errors
    expect(errors).toEqual([expect.objectContaining({ stage: 'vision_analysis', message: expect.stringMatching(new RegExp(`^image ${broken}: .*HTTP 404`)) })])
    expect((await admin.get('/api/categorize')).body.job).toMatchObject({ status: 'completed', errors: 1 })
  }, 120_000)
})
