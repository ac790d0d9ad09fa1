import { parse } from 'csv-parse/sync'
import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, PASSWORD, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, upload } from '../library/helpers.ts'
import { DAY_MS, importPosts, listIds, type PostSpec } from './support.ts'

const NOW = Date.parse('2026-06-15T12:00:00Z')
const posts: PostSpec[] = Array.from({ length: 30 }, (_, i) => ({
  postId: String(1000 + i),
  text: i === 0 ? 'A note on zanzibarite crystals' : `post number ${i} about ${['models', 'soup', 'jazz'][i % 3]}`,
  categories: [[ 'ai' ], [ 'cooking' ], [ 'music' ]][i % 3],
  importedAt: NOW - i * DAY_MS, analyzedAt: null, likes: i,
}))

let t: TestServer
let admin: Client
let ana: Client
let ben: Client
let viewer: Client
let ids: Map<string, number>
const id = (n: number) => ids.get(String(1000 + n))!

beforeAll(async () => {
  t = await startTestServer()
  t.clock.now = NOW
  admin = await signedIn(t, 'admin', 'admin@example.com')
  ana = await signedIn(t, 'member', 'ana@example.com')
  ben = await signedIn(t, 'member', 'ben@example.com')
  viewer = await signedIn(t, 'viewer', 'vic@example.com')
  ids = await importPosts(admin, posts)
  expect(ids.size).toBe(30)
})
afterAll(async () => t?.close())

const stateOf = async (c: Client, postId: number) => (await c.get(`/api/bookmarks/${postId}`)).body.state

describe('a member\'s own state', () => {
  it('is set with PUT and answered with the caller\'s state', async () => {
    const res = await ana.put(`/api/bookmarks/${id(0)}/state`, { starred: true })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({ id: id(0), state: { read: false, starred: true, hidden: false } })
    expect((await ana.put(`/api/bookmarks/${id(1)}/state`, { read: true })).body.state).toEqual({ read: true, starred: false, hidden: false })
    expect((await ana.put(`/api/bookmarks/${id(2)}/state`, { hidden: true, read: true })).body.state).toEqual({ read: true, starred: false, hidden: true })
    // a later change leaves the other flags as they are
    expect((await ana.put(`/api/bookmarks/${id(0)}/state`, { read: true })).body.state).toEqual({ read: true, starred: true, hidden: false })
    expect((await ana.put(`/api/bookmarks/${id(0)}/state`, { read: false })).body.state).toEqual({ read: false, starred: true, hidden: false })
  })

  it('is never seen by another member, an admin or a viewer, in lists or detail', async () => {
    for (const c of [ben, admin, viewer]) {
      expect(await stateOf(c, id(0))).toEqual({ read: false, starred: false, hidden: false })
      const list = await allBookmarks(c)
      expect(list).toHaveLength(30)
      expect(list.every((b) => b.state && !b.state.read && !b.state.starred && !b.state.hidden)).toBe(true)
      expect(await listIds(c, 'starred=true')).toEqual([])
      expect(await listIds(c, 'hidden=true')).toEqual([])
    }
    expect(await stateOf(ana, id(0))).toEqual({ read: false, starred: true, hidden: false })
    const mine = await allBookmarks(ana)
    expect(mine.find((b) => b.id === id(0)).state.starred).toBe(true)
  })

  it('filters: starred, read, unread; hidden posts only when asked for', async () => {
    expect(await listIds(ana, 'starred=true')).toEqual([id(0)])
    expect(await listIds(ana, 'read=true')).toEqual([id(1)])
    expect(await listIds(ana, 'hidden=true')).toEqual([id(2)])
    const unread = await listIds(ana, 'read=false')
    expect(unread).toHaveLength(28)
    expect(unread).not.toContain(id(1))
    expect(unread).not.toContain(id(2))
    const all = await ana.get('/api/bookmarks?limit=5')
    expect(all.body.total).toBe(29)
    expect(await listIds(ana)).not.toContain(id(2))
    // with other filters: a category, and words (whose page is cut in memory)
    expect((await ana.get('/api/bookmarks?category=music')).body.total).toBe(9) // ten music posts, one hidden
    expect((await ana.get('/api/bookmarks?category=music&hidden=true')).body.bookmarks.map((b: any) => b.id)).toEqual([id(2)])
    expect((await ana.get('/api/bookmarks?q=jazz')).body.total).toBe(9)
    expect((await ben.get('/api/bookmarks?q=jazz')).body.total).toBe(10)
    expect((await ana.get('/api/bookmarks?q=zanzibarite&starred=true')).body.bookmarks.map((b: any) => b.id)).toEqual([id(0)])
    expect((await ben.get('/api/bookmarks?q=zanzibarite&starred=true')).body.total).toBe(0)
    for (const q of ['read=yes', 'starred=1', 'hidden=maybe']) {
      const res = await ana.get(`/api/bookmarks?${q}`)
      expect(res.status, q).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.error.startsWith(q.split('=')[0])).toBe(true)
    }
  })

  it('counts follow each change (the cached totals move with the member\'s state)', async () => {
    expect((await ben.get('/api/bookmarks?read=false')).body.total).toBe(30)
    await ben.put(`/api/bookmarks/${id(5)}/state`, { read: true })
    expect((await ben.get('/api/bookmarks?read=false')).body.total).toBe(29)
    expect((await ben.get('/api/bookmarks?read=true')).body.total).toBe(1)
    await ben.put(`/api/bookmarks/${id(5)}/state`, { read: false })
    expect((await ben.get('/api/bookmarks?read=false')).body.total).toBe(30)
    expect((await ana.get('/api/bookmarks?read=false')).body.total).toBe(28)
  })

  it('every combination of state filters, alone and with a category, totals what the posts\' own states say', async () => {
    const cara = await signedIn(t, 'member', 'cara@example.com')
    await cara.post('/api/bookmarks/state', { ids: [id(3), id(6), id(9), id(12)], read: true, starred: true })
    await cara.post('/api/bookmarks/state', { ids: [id(6), id(15)], hidden: true })
    await cara.post('/api/bookmarks/state', { ids: [id(1), id(4)], read: true })
    await cara.post('/api/bookmarks/state', { ids: [id(7)], starred: true })
    for (const c of [cara, ana, ben]) {
      const every = [...await allBookmarks(c), ...await allBookmarks(c, 'hidden=true')]
      expect(every).toHaveLength(30)
      for (const category of [null, 'ai', 'music', 'cooking']) {
        for (const read of [undefined, true, false]) {
          for (const starred of [undefined, true, false]) {
            for (const hidden of [undefined, true, false]) {
              const want = every.filter((b) => (category === null || b.categories.some((x: any) => x.slug === category)) &&
                (read === undefined || b.state.read === read) && (starred === undefined || b.state.starred === starred) &&
                b.state.hidden === (hidden ?? false)).length
              const q = [category && `category=${category}`, read !== undefined && `read=${read}`, starred !== undefined && `starred=${starred}`,
                hidden !== undefined && `hidden=${hidden}`].filter(Boolean).join('&')
              const res = await c.get(`/api/bookmarks?limit=100&${q}`)
              expect(res.body.total, q).toBe(want)
              expect(res.body.bookmarks.length, q).toBe(want)
            }
          }
        }
      }
    }
  })

  it('viewers keep their own state too, and it changes nothing shared', async () => {
    const res = await viewer.put(`/api/bookmarks/${id(3)}/state`, { starred: true, hidden: true })
    expect(res.status).toBe(200)
    expect(await listIds(viewer, 'hidden=true')).toEqual([id(3)])
    expect(await listIds(ana)).toContain(id(3))
    expect((await stateOf(ana, id(3))).starred).toBe(false)
  })

  it('bulk: one change for a selection; unknown ids are ignored and not counted', async () => {
    const res = await ben.post('/api/bookmarks/state', { ids: [id(10), id(11), id(12), 999999], read: true, starred: true })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({ affected: 3 })
    expect((await listIds(ben, 'starred=true')).sort()).toEqual([id(10), id(11), id(12)].sort())
    expect(await listIds(ana, 'starred=true')).toEqual([id(0)])
    expect((await ben.post('/api/bookmarks/state', { ids: [id(10)], starred: false })).body).toEqual({ affected: 1 })
    expect((await listIds(ben, 'starred=true')).sort()).toEqual([id(11), id(12)].sort())
  })

  it('refuses bad requests with {error, code} and never a 500', async () => {
    const cases: Array<[string, string, unknown, number, string]> = [
      ['PUT', `/api/bookmarks/${id(0)}/state`, {}, 400, 'VALIDATION_ERROR'],
      ['PUT', `/api/bookmarks/${id(0)}/state`, { read: 'yes' }, 400, 'VALIDATION_ERROR'],
      ['PUT', `/api/bookmarks/${id(0)}/state`, { read: true, shared: true }, 400, 'VALIDATION_ERROR'],
      ['PUT', '/api/bookmarks/999999/state', { read: true }, 404, 'NOT_FOUND'],
      ['PUT', '/api/bookmarks/abc/state', { read: true }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/bookmarks/state', { ids: [], read: true }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/bookmarks/state', { ids: [id(1)] }, 400, 'VALIDATION_ERROR'],
      ['POST', '/api/bookmarks/state', { ids: 'all', read: true }, 400, 'VALIDATION_ERROR'],
    ]
    for (const [method, path, body, status, code] of cases) {
      const res = await ana.request(method, path, body)
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(status)
      expect(res.body.code).toBe(code)
      expect(typeof res.body.error).toBe('string')
    }
    const bad = await ana.request('PUT', `/api/bookmarks/${id(0)}/state`, '{not json')
    expect(bad.status).toBe(400)
    const stranger = new Client(t.url)
    expect((await stranger.put(`/api/bookmarks/${id(0)}/state`, { read: true })).status).toBe(401)
    expect((await stranger.post('/api/bookmarks/state', { ids: [id(0)], read: true })).status).toBe(401)
  })

  it('search results carry the caller\'s state only', async () => {
    const find = async (c: Client) => {
      const res = await c.get('/api/search/ai?q=zanzibarite')
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return res.body.results.find((r: any) => r.bookmark.id === id(0))?.bookmark.state
    }
    expect(await find(ana)).toEqual({ read: false, starred: true, hidden: false })
    expect(await find(ben)).toEqual({ read: false, starred: false, hidden: false })
    expect(await find(admin)).toEqual({ read: false, starred: false, hidden: false })
  })

  it('the JSON export carries the exporter\'s own state, never anyone else\'s (admins included)', async () => {
    const exported = async (c: Client) => {
      const res = await c.get('/api/export?format=json')
      expect(res.status).toBe(200)
      return res.body.bookmarks as any[]
    }
    const states = (doc: any[]) => doc.flatMap((b) => b.states.map((s: any) => ({ postId: b.postId, ...s })))
    const anas = states(await exported(ana))
    expect(anas.every((s) => s.userEmail === 'ana@example.com')).toBe(true)
    expect(anas.map((s) => s.postId).sort()).toEqual(['1000', '1001', '1002'])
    expect(anas.find((s) => s.postId === '1000')).toMatchObject({ read: false, starred: true, hidden: false })
    expect(anas.find((s) => s.postId === '1002')).toMatchObject({ hidden: true })
    const bens = states(await exported(ben))
    expect(bens.every((s) => s.userEmail === 'ben@example.com')).toBe(true)
    expect(bens.map((s) => s.postId).sort()).toEqual(['1010', '1011', '1012']) // 1010 is still read
    expect(states(await exported(admin))).toEqual([])
    const text = JSON.stringify(await exported(admin))
    expect(text).not.toContain('ana@example.com')
    expect(text).not.toContain('ben@example.com')
  })

  it('the CSV and Markdown exports carry the exporter\'s own flags, never anyone else\'s', async () => {
    const csvRows = async (c: Client) => {
      const res = await fetch(`${t.url}/api/export?format=csv`, { headers: { cookie: c.cookie! } })
      return parse((await res.text()).slice(1), { columns: true }) as Array<Record<string, string>>
    }
    const flags = (rows: Array<Record<string, string>>, postId: string) => {
      const r = rows.find((x) => x.postId === postId)!
      return { starred: r.starred, read: r.read, hidden: r.hidden }
    }
    const anas = await csvRows(ana)
    expect(flags(anas, '1000')).toEqual({ starred: 'true', read: 'false', hidden: 'false' })
    expect(flags(anas, '1002').hidden).toBe('true')
    const bens = await csvRows(ben)
    expect(flags(bens, '1000')).toEqual({ starred: 'false', read: 'false', hidden: 'false' })
    expect(flags(bens, '1010').read).toBe('true')
    expect(flags(await csvRows(admin), '1010')).toEqual({ starred: 'false', read: 'false', hidden: 'false' })

    const vault = async (c: Client) => {
      const res = await fetch(`${t.url}/api/export?format=markdown&layout=flat`, { headers: { cookie: c.cookie! } })
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
      return Object.entries(files).map(([, bytes]) => strFromU8(bytes))
    }
    const noteFor = (notes: string[], postId: string) => notes.find((n) => n.includes(`postId: "${postId}"`))!
    const anaNotes = await vault(ana)
    expect(noteFor(anaNotes, '1000')).toMatch(/^starred: true$/m)
    expect(noteFor(anaNotes, '1002')).toMatch(/^hidden: true$/m)
    expect(noteFor(anaNotes, '1005')).not.toMatch(/^(starred|read|hidden):/m)
    expect(noteFor(await vault(ben), '1000')).not.toMatch(/^starred:/m)
  })

  it('re-importing a member\'s export restores their state for them, and no one else\'s', async () => {
    const file = (await ana.get('/api/export?format=json')).body
    const t2 = await startTestServer()
    try {
      const admin2 = await signedIn(t2, 'admin', 'root@example.com')
      const ana2 = await signedIn(t2, 'member', 'ana@example.com')
      const ben2 = await signedIn(t2, 'member', 'ben@example.com')
      const res = await upload(admin2, { name: 'ana.json', content: JSON.stringify(file) })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const byPost = new Map((await allBookmarks(ana2, 'hidden=false')).map((b) => [b.postId, b]))
      expect(byPost.get('1000').state).toEqual({ read: false, starred: true, hidden: false })
      expect(byPost.get('1001').state).toEqual({ read: true, starred: false, hidden: false })
      expect(byPost.has('1002')).toBe(false)
      expect((await allBookmarks(ana2, 'hidden=true')).map((b) => b.postId)).toEqual(['1002'])
      expect(await listIds(ben2, 'starred=true')).toEqual([])
      expect(await listIds(admin2, 'starred=true')).toEqual([])
      expect(await listIds(admin2, 'hidden=true')).toEqual([])
    } finally {
      await t2.close()
    }
  })

  it('a merge keeps each member\'s state on the post that stays', async () => {
    await ben.put(`/api/bookmarks/${id(20)}/state`, { starred: true })
    const res = await admin.post(`/api/bookmarks/${id(21)}/merge`, { otherId: id(20) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await stateOf(ben, id(21))).starred).toBe(true)
    expect((await stateOf(ana, id(21))).starred).toBe(false)
  })

  it('a removed account\'s state goes with it', async () => {
    const gone = await signedIn(t, 'member', 'gone@example.com')
    await gone.put(`/api/bookmarks/${id(4)}/state`, { starred: true })
    const users = (await admin.get('/api/users')).body.users
    const uid = users.find((u: any) => u.email === 'gone@example.com').id
    expect((await admin.delete(`/api/users/${uid}`)).status).toBe(204)
    const again = await signedIn(t, 'member', 'gone2@example.com')
    expect(await listIds(again, 'starred=true')).toEqual([])
    expect(PASSWORD).toBeTruthy()
  })
})
