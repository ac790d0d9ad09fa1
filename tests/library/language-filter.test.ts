import { afterAll, beforeAll, expect, it } from 'vitest'
import { zBookmarkList } from '../../src-shared/schemas/bookmarks.ts'
import { zLanguageCounts } from '../../src-shared/schemas/library.ts'
import { clientsByRole, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, languagesSettled, upload } from './helpers.ts'
import { describeIf } from '../support/skip.ts'

// GET /api/bookmarks?lang= and GET /api/bookmarks/languages over HTTP, on the X archive (mostly
// Spanish and English posts, X's own codes) and a GraphQL search capture (Japanese and English).

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('filtering the library by language', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  let all: any[]
  beforeAll(async () => {
    t = await startTestServer()
    c = await clientsByRole(t)
    await upload(c.admin, sharedFixture('exports/archive/alrocar_x/tweets.js'))
    await upload(c.admin, sharedFixture('exports/graphql/uakihir0_searchtimeline.json'))
    await languagesSettled(c.viewer)
    all = await allBookmarks(c.admin)
  })
  afterAll(async () => t?.close())

  it('every list item carries lang: ISO 639-1 or null', () => {
    expect(all.length).toBeGreaterThan(1223)
    for (const b of all) expect(b.lang === null || /^[a-z]{2}$/.test(b.lang)).toBe(true)
    expect(all.filter((b) => b.lang === 'es').length).toBeGreaterThan(700)
    expect(all.filter((b) => b.lang === 'ja').length).toBeGreaterThan(0)
  })

  it('?lang= keeps only that language, in every sort, with other filters, and paged', async () => {
    for (const lang of ['es', 'en', 'ja']) {
      const want = all.filter((b) => b.lang === lang)
      for (const sort of ['newest', 'oldest', 'popular']) {
        const got = await allBookmarks(c.viewer, `lang=${lang}&sort=${sort}`)
        expect(got.map((b) => b.id).sort(), `${lang} ${sort}`).toEqual(want.map((b) => b.id).sort())
      }
      const page = zBookmarkList.parse((await c.viewer.get(`/api/bookmarks?lang=${lang}&limit=5`)).body)
      expect(page.total).toBe(want.length)
      expect(page.bookmarks.every((b) => b.lang === lang)).toBe(true)
    }
    // with a word: Spanish posts that say "tinybird"
    const q = (await c.viewer.get('/api/bookmarks?lang=es&q=tinybird&limit=100')).body
    const withWord = new Set((await allBookmarks(c.viewer, 'q=tinybird')).map((b) => b.id))
    expect(q.total).toBeGreaterThan(0)
    expect(q.total).toBe(all.filter((b) => b.lang === 'es' && withWord.has(b.id)).length)
    expect(q.total).toBeLessThan(withWord.size)
    // the same with another filter beside them (one SQL query instead of the in-memory cut)
    const viaSql = (await c.viewer.get('/api/bookmarks?lang=es&q=tinybird&limit=100&source=own_post')).body
    expect(viaSql.bookmarks.map((b: any) => b.id).sort()).toEqual(q.bookmarks.filter((b: any) => b.source === 'own_post').map((b: any) => b.id).sort())
    expect(q.bookmarks.every((b: any) => b.lang === 'es')).toBe(true)
    expect(q.bookmarks.filter((b: any) => /tinybird/i.test(b.text)).length).toBeGreaterThan(0)
    // a language the library does not hold: an empty list, not an error
    expect((await c.viewer.get('/api/bookmarks?lang=fi')).body).toMatchObject({ bookmarks: [], total: 0 })
  })

  it('refuses a lang that is not a two-letter lower-case code with 400 VALIDATION_ERROR naming lang', async () => {
    for (const v of ['ES', 'spanish', 'e', 'es-ES', 'und', '12', '']) {
      const res = await c.viewer.get(`/api/bookmarks?lang=${encodeURIComponent(v)}`)
      expect(res.status, v).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(typeof res.body.error).toBe('string')
      expect(res.body.error.startsWith('lang:'), res.body.error).toBe(true)
    }
  })

  it('GET /api/bookmarks/languages counts the languages present, most first, for every role', async () => {
    for (const who of [c.viewer, c.member, c.admin]) {
      const res = await who.get('/api/bookmarks/languages')
      expect(res.status).toBe(200)
      const body = zLanguageCounts.parse(res.body)
      expect(body.languages[0]).toEqual({ lang: 'es', count: all.filter((b) => b.lang === 'es').length })
      for (const l of body.languages) expect(l.count).toBe(all.filter((b) => b.lang === l.lang).length)
      expect(body.none).toBe(all.filter((b) => b.lang === null).length)
      expect(body.pending).toBe(0)
      const counts = body.languages.map((l) => l.count)
      expect(counts).toEqual([...counts].sort((a, b) => b - a))
    }
  })

  it('the export takes the lang filter too', async () => {
    const res = await c.member.get('/api/export?format=csv&lang=ja')
    expect(res.status).toBe(200)
    const rows = String(res.body).trim().split('\r\n').length - 1
    expect(rows).toBe(all.filter((b) => b.lang === 'ja').length)
  })
})
