import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { clientsByRole, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, upload } from './helpers.ts'
import { describeIf } from '../support/skip.ts'

const fx = (p: string) => sharedFixture('exports', p)

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('import behaviour', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  beforeAll(async () => {
    t = await startTestServer()
    c = await clientsByRole(t)
  })
  afterAll(async () => t?.close())

  it('refuses members and viewers (admin only)', async () => {
    for (const role of ['member', 'viewer'] as const) {
      const res = await upload(c[role], fx('derived/twillot_bookmarks.json'))
      expect(res.status).toBe(403)
      expect(res.body.code).toBe('FORBIDDEN')
      expect((await c[role].get('/api/import/history')).status).toBe(403)
    }
  })

  it('is idempotent: a second import of the same file adds nothing', async () => {
    const first = await upload(c.admin, fx('derived/twillot_bookmarks.json'))
    expect(first.body).toMatchObject({ imported: 72, duplicates: 0, errors: 0, updated: 0, format: 'twillot' })
    const again = await upload(c.admin, fx('derived/twillot_bookmarks.json'))
    expect(again.body).toMatchObject({ imported: 0, duplicates: 72, errors: 0, updated: 0 })
    expect((await c.admin.get('/api/bookmarks')).body.total).toBe(72)
  })

  it('a richer file updates stored posts without losing categories or notes', async () => {
    await upload(c.admin, fx('derived/siftly_console_bookmarks_newschema.json'))
    const poor = (await allBookmarks(c.admin)).find((b) => b.postId === '2074976613713031490')
    expect(poor.authorHandle).toBe('unknown')
    expect(poor.text.endsWith('Iceland (~60% of Tesla sales in Europe)')).toBe(false)
    expect((await c.admin.put(`/api/bookmarks/${poor.id}/categories`, { slugs: ['business-startups'] })).status).toBe(200)
    expect((await c.member.put(`/api/bookmarks/${poor.id}/note`, { text: 'check the Q3 numbers' })).status).toBe(200)

    const rich = await upload(c.admin, fx('derived/graphql_bookmarks_envelope_newschema.json'))
    expect(rich.status).toBe(200)
    expect(rich.body.updated).toBeGreaterThan(50)
    const after = (await c.member.get(`/api/bookmarks/${poor.id}`)).body
    expect(after.authorHandle).toBe('piloly')
    expect(after.authorName).toBe('Roland Pircher')
    expect(after.text.endsWith('Iceland (~60% of Tesla sales in Europe)')).toBe(true)
    expect(after.media).toHaveLength(4)
    expect(after.categories.map((x: any) => x.slug)).toEqual(['business-startups'])
    expect(after.note).toBe('check the Q3 numbers')
    // and once more: nothing left to update
    const third = await upload(c.admin, fx('derived/graphql_bookmarks_envelope_newschema.json'))
    expect(third.body.updated).toBe(0)
    expect(third.body.imported).toBe(0)
  })

  it('a file that breaks off half-way is a 400 saying where, and leaves the library unchanged', async () => {
    const before = (await c.admin.get('/api/stats')).body
    const whole = readFileSync(fx('archive/alrocar_x/tweets.js'))
    // past the first write batch (1,000 posts), so rows were written before the failure
    const cut = whole.subarray(0, Math.floor(whole.length * 0.95))
    const res = await upload(c.admin, { name: 'tweets.js', content: cut })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
    expect(res.body.error).toMatch(/line|position|offset|byte|end|truncat/i)
    const after = (await c.admin.get('/api/stats')).body
    expect(after.totalBookmarks).toBe(before.totalBookmarks)
    expect(after.totalMediaItems).toBe(before.totalMediaItems)
    expect(after.recentImport).toBe(before.recentImport)
    // the library still works and the whole file imports afterwards
    const ok = await upload(c.admin, fx('archive/alrocar_x/tweets.js'))
    expect(ok.body.imported).toBe(1223)
  })

  it('refuses a file that is not an export, naming the accepted formats', async () => {
    const res = await upload(c.admin, { name: 'notes.txt', content: 'hello, this is not an export' })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
    expect(res.body.error).toMatch(/^notes\.txt: not an export: .* Sheaf reads X archives/)
    const broken = await upload(c.admin, { name: 'b.json', content: '{"data": {"bookmark_timeline_v2": {"timeline": {"instructions": [' })
    expect(broken.status).toBe(400)
    expect(broken.body.code).toBe('VALIDATION_ERROR')
  })

  it('refuses a request without a file part', async () => {
    const fd = new FormData()
    fd.append('other', 'x')
    const res = await c.admin.request('POST', '/api/import', fd)
    expect(res.status).toBe(400)
    expect(res.body.error).toMatch(/file/)
    const json = await c.admin.post('/api/import', { file: 'x' })
    expect(json.status).toBe(400)
  })

  it('records each import in the history: when, who, file name, format, counts, bytes', async () => {
    const res = await c.admin.get('/api/import/history')
    expect(res.status).toBe(200)
    const list = res.body.imports
    expect(list.length).toBeGreaterThanOrEqual(6)
    const twillot = list.filter((h: any) => h.fileName === 'twillot_bookmarks.json')
    expect(twillot).toHaveLength(2)
    expect(twillot[1]).toMatchObject({ format: 'twillot', imported: 72, duplicates: 0, errors: 0, updated: 0 })
    expect(twillot[0]).toMatchObject({ imported: 0, duplicates: 72 })
    expect(twillot[0].bytes).toBe(readFileSync(fx('derived/twillot_bookmarks.json')).length)
    expect(twillot[0].user.email).toMatch(/^admin-/)
    expect(Date.parse(twillot[0].createdAt)).not.toBeNaN()
    // the failed import is not recorded
    expect(list.filter((h: any) => h.fileName === 'tweets.js')).toHaveLength(1)
  })
})

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('import size limit', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer({ config: { importLimitBytes: 20_000 } })
  })
  afterAll(async () => t?.close())

  it('refuses an upload over the limit with 400 naming the limit, and imports nothing', async () => {
    const { admin } = await clientsByRole(t)
    const res = await upload(admin, fx('derived/twillot_bookmarks.json'))
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
    expect(res.body.error).toContain('20000 bytes')
    expect((await admin.get('/api/stats')).body.totalBookmarks).toBe(0)
    // a file under the limit still works
    const small = await upload(admin, fx('flat/x_bookmarks_fetchpy_excerpt.json'))
    expect(small.status).toBe(200)
    expect(small.body.imported).toBe(13)
  })

  it('stops reading a streamed upload (no Content-Length) once it passes the limit', async () => {
    const { admin } = await clientsByRole(t)
    const body = readFileSync(fx('derived/twillot_bookmarks.json'))
    const boundary = 'sheafboundary'
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.json"\r\nContent-Type: application/json\r\n\r\n`)
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
    const stream = new ReadableStream({
      start(ctrl) {
        ctrl.enqueue(head)
        for (let i = 0; i < body.length; i += 8192) ctrl.enqueue(body.subarray(i, i + 8192))
        ctrl.enqueue(tail)
        ctrl.close()
      },
    })
    const res = await fetch(`${t.url}/api/import`, {
      method: 'POST', body: stream, duplex: 'half',
      headers: { cookie: admin.cookie!, 'content-type': `multipart/form-data; boundary=${boundary}` },
    } as RequestInit)
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toContain('20000 bytes')
  })
})
