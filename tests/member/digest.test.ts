import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { upload } from '../library/helpers.ts'
import { DAY_MS, importPosts, type PostSpec } from './support.ts'

const NOW = new Date(2026, 5, 15, 12).getTime()
const HOUR = 3_600_000
const GROUPS = [['ai'], ['cooking'], ['music'], [], ['ai', 'music']]
const posts: PostSpec[] = Array.from({ length: 40 }, (_, i) => ({
  postId: String(3000 + i),
  text: i === 1 ? 'Try <b>bold</b> *stars* and [links](javascript:alert(1))' : `digest post ${i}`,
  categories: GROUPS[i % GROUPS.length],
  // three a day, so a window of days holds a known few
  importedAt: NOW - Math.floor(i / 3) * DAY_MS - (i % 3) * HOUR,
  analyzedAt: i % 2 === 0 ? NOW - Math.floor(i / 2) * DAY_MS + HOUR / 2 : null,
  likes: i === 1 ? 100 : (i * 17) % 41,
}))

/** The window computed here on its own terms: local midnights from the calendar, not the server's arithmetic. */
function windowOf(days: number): { from: number; to: number } {
  const end = new Date(NOW)
  end.setHours(0, 0, 0, 0)
  end.setDate(end.getDate() + 1)
  const start = new Date(end)
  start.setDate(start.getDate() - days)
  return { from: start.getTime(), to: end.getTime() }
}
const inside = (t: number | null, w: { from: number; to: number }) => t !== null && t >= w.from && t < w.to

let t: TestServer
let admin: Client
let ana: Client
let ben: Client
let viewer: Client
let ids: Map<string, number>
const id = (i: number) => ids.get(String(3000 + i))!

beforeAll(async () => {
  t = await startTestServer()
  t.clock.now = NOW
  admin = await signedIn(t, 'admin', 'admin@example.com')
  ana = await signedIn(t, 'member', 'ana@example.com')
  ben = await signedIn(t, 'member', 'ben@example.com')
  viewer = await signedIn(t, 'viewer', 'vic@example.com')
  ids = await importPosts(admin, posts)
})
afterAll(async () => t?.close())

const digest = async (c: Client, q = 'days=7') => {
  const res = await c.get(`/api/digest?${q}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}

describe('household digest', () => {
  it('counts what was saved and analysed in the window, per category, as counted here independently', async () => {
    for (const days of [1, 3, 7, 30]) {
      const w = windowOf(days)
      const d = await digest(viewer, `days=${days}`)
      expect(d.days).toBe(days)
      expect(Date.parse(d.from)).toBe(w.from)
      expect(Date.parse(d.to)).toBe(w.to)
      const saved = posts.filter((p) => inside(p.importedAt, w))
      const analyzed = posts.filter((p) => inside(p.analyzedAt, w))
      expect(d.saved, `days=${days}`).toBe(saved.length)
      expect(d.analyzed, `days=${days}`).toBe(analyzed.length)
      for (const slug of ['ai', 'cooking', 'music', null]) {
        const has = (p: PostSpec) => (slug === null ? p.categories.length === 0 : p.categories.includes(slug))
        const c = d.categories.find((x: any) => x.slug === slug)
        const want = { saved: saved.filter(has).length, analyzed: analyzed.filter(has).length }
        if (want.saved + want.analyzed === 0) expect(c).toBeUndefined()
        else expect({ saved: c.saved, analyzed: c.analyzed }, `${slug} days=${days}`).toEqual(want)
        if (c) {
          const top = saved.filter(has).sort((a, b) => b.likes - a.likes || id(+b.postId - 3000) - id(+a.postId - 3000)).slice(0, 3)
          expect(c.top.map((p: any) => p.postId)).toEqual(top.map((p) => p.postId))
        }
      }
    }
  })

  it('counts the most-starred posts across members without saying who', async () => {
    await ana.put(`/api/bookmarks/${id(4)}/state`, { starred: true })
    await ben.put(`/api/bookmarks/${id(4)}/state`, { starred: true })
    await viewer.put(`/api/bookmarks/${id(4)}/state`, { starred: true })
    await ana.put(`/api/bookmarks/${id(7)}/state`, { starred: true })
    await ben.put(`/api/bookmarks/${id(9)}/state`, { starred: true })
    await ben.put(`/api/bookmarks/${id(9)}/state`, { starred: false })
    const d = await digest(ben)
    expect(d.mostStarred.map((p: any) => [p.postId, p.stars])).toEqual([['3004', 3], ['3007', 1]])
    expect(Object.keys(d.mostStarred[0]).sort()).toEqual(['authorHandle', 'id', 'postId', 'stars', 'text', 'url'])
    const text = JSON.stringify(d)
    for (const who of ['ana@', 'ben@', 'vic@', 'member user', 'viewer user']) expect(text).not.toContain(who)
  })

  it('suggests posts others saved in the categories this member reads most, unread by them', async () => {
    // ana reads music most, then ai
    const read = [2, 12, 22, 32, 0].map(id)
    await ana.post('/api/bookmarks/state', { ids: read, read: true })
    const d = await digest(ana, 'days=30')
    expect(d.forYou.categories.map((c: any) => c.slug)).toEqual(['music', 'ai'])
    const w = windowOf(30)
    const want = posts.filter((p) => inside(p.importedAt, w) && p.categories.some((c) => c === 'music' || c === 'ai') && !read.includes(id(+p.postId - 3000)))
      .sort((a, b) => b.likes - a.likes || +b.postId - +a.postId).slice(0, 10).map((p) => p.postId)
    expect(d.forYou.posts.map((p: any) => p.postId)).toEqual(want)
    // ben has read nothing: no categories to go by, and the page says so by leaving the list empty
    expect((await digest(ben)).forYou).toEqual({ categories: [], posts: [] })
  })

  it('leaves out, for the one who saved them, posts they saved themselves', async () => {
    const flat = { updated_at: '2026-06-15T10:00:00Z', count: 1, bookmarks: [
      { id: '3900', url: 'https://x.com/own/status/3900', author: 'Own', handle: 'own', created_at: 'Mon Jun 15 09:00:00 +0000 2026', text: 'saved by the admin today', media: [], urls: [], likes: 40 },
    ] }
    expect((await upload(admin, { name: 'flat.json', content: JSON.stringify(flat) })).status).toBe(200)
    const own = (await admin.get('/api/bookmarks?q=admin')).body.bookmarks[0].id
    expect((await admin.put(`/api/bookmarks/${own}/categories`, { slugs: ['music'] })).status).toBe(200)
    await admin.put(`/api/bookmarks/${id(2)}/state`, { read: true })
    const mine = await digest(admin)
    expect(mine.forYou.categories[0].slug).toBe('music')
    expect(mine.forYou.posts.map((p: any) => p.id)).not.toContain(own)
    expect((await digest(ana)).forYou.posts.map((p: any) => p.id)).toContain(own)
  })

  it('renders Markdown a person can paste anywhere, with post text made inert', async () => {
    const res = await ana.get('/api/digest?days=7&format=markdown')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    const md = res.body as string
    const d = await digest(ana)
    expect(md.split('\n')[0]).toMatch(/^# Household digest: \d{1,2} \w+ 2026 to \d{1,2} \w+ 2026$/)
    expect(md).toContain(`${d.saved} posts saved and ${d.analyzed} posts analysed in the last 7 days.`)
    for (const c of d.categories) expect(md).toContain(`### ${c.name.replace(/&/g, '&amp;')}: ${c.saved} saved, ${c.analyzed} analysed`)
    expect(md).toContain('## Most starred')
    expect(md).toContain('Try \\<b\\>bold\\</b\\> \\*stars\\* and \\[links\\]\\(javascript:alert\\(1\\)\\)')
    expect(md).not.toContain('<b>')
  })

  it('refuses bad windows and strangers', async () => {
    for (const q of ['days=0', 'days=91', 'days=week', 'format=html']) {
      const res = await ana.get(`/api/digest?${q}`)
      expect(res.status, q).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
    }
    const { Client } = await import('../support/client.ts')
    expect((await new Client(t.url).get('/api/digest')).status).toBe(401)
    expect((await new Client(t.url).get('/api/review')).status).toBe(401)
  })
})
