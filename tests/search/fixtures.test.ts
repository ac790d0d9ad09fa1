import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { zSearchResponse } from '../../src-shared/schemas/search.ts'
import { clientsByRole, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { describeIf } from '../support/skip.ts'

const FILE = 'exports/derived/graphql_bookmarks_envelope_newschema.json'

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('search over real posts imported from ../shared/fixtures', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  let posts: Array<{ id: number; text: string; authorHandle: string }>

  beforeAll(async () => {
    t = await startTestServer()
    c = await clientsByRole(t)
    const fd = new FormData()
    fd.append('file', new Blob([readFileSync(sharedFixture(FILE))]), 'bookmarks.json')
    const res = await c.admin.request('POST', '/api/import', fd)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    posts = (await c.member.get('/api/bookmarks?limit=100')).body.bookmarks
    expect(posts.length).toBeGreaterThan(20)
  })
  afterAll(async () => t?.close())

  it('finds each sampled post by its rarest long word and says where it matched', async () => {
    const counts = new Map<string, number>()
    const wordsOf = (s: string) => [...new Set(s.toLowerCase().replace(/https?:\/\/\S+/g, ' ').match(/\b[a-z]{7,}\b/g) ?? [])]
    // Unique by the first six letters, so stemming cannot tie it to another post ("present", "presentation").
    const key = (w: string) => w.slice(0, 6)
    for (const p of posts) for (const k of new Set(wordsOf(p.text).map(key))) counts.set(k, (counts.get(k) ?? 0) + 1)
    let checked = 0
    for (const p of posts) {
      const unique = wordsOf(p.text).filter((w) => counts.get(key(w)) === 1)
      if (unique.length === 0) continue
      const r = zSearchResponse.parse((await c.member.get(`/api/search/ai?q=${encodeURIComponent(unique[0])}`)).body)
      expect(r.results[0]?.bookmark.id, unique[0]).toBe(p.id)
      expect(r.results[0].reason).toMatch(new RegExp(`^Mentions “${unique[0]}”`, 'i'))
      expect(r.results[0].relevance).toBeGreaterThan(0.5)
      if (++checked === 10) break
    }
    expect(checked).toBe(10)
  })

  it('filters real posts by author and media', async () => {
    const author = posts[0].authorHandle
    const r = zSearchResponse.parse((await c.member.get(`/api/search/ai?q=${encodeURIComponent(`from:@${author}`)}&limit=50`)).body)
    expect(r.results.length).toBe(posts.filter((p) => p.authorHandle === author).length)
    const withImages = zSearchResponse.parse((await c.member.get('/api/search/ai?q=has:image&limit=50')).body)
    expect(withImages.results.length).toBeGreaterThan(0)
    for (const x of withImages.results) expect(x.bookmark.media.some((m) => m.type === 'photo')).toBe(true)
  })
})
