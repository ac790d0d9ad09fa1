import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD, signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { DAY_MS, importPosts, type PostSpec } from './support.ts'

// local noon, so moving the clock by whole days lands on the next local day
const NOW = new Date(2026, 5, 15, 12).getTime()
const GROUPS = [['ai'], ['cooking'], ['music'], []]
const posts: PostSpec[] = Array.from({ length: 40 }, (_, i) => ({
  postId: String(2000 + i), text: `review post ${i}`, categories: GROUPS[i % 4], importedAt: NOW - i * DAY_MS, analyzedAt: null, likes: i,
}))

let t: TestServer
let ids: Map<string, number>
const member = async (email: string) => signedIn(t, 'member', email)
/** Moves the clock to `d` days after NOW; sessions last a day, so the clients sign in again. */
async function at(d: number, ...clients: Array<[Client, string]>) {
  t.clock.now = NOW + d * DAY_MS
  for (const [c, email] of clients) expect((await c.post('/api/auth/login', { email, password: PASSWORD })).status).toBe(200)
}
const review = async (c: Client, n?: number) => {
  const res = await c.get(`/api/review${n ? `?n=${n}` : ''}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}
const answer = async (c: Client, id: number, outcome: string) => {
  const res = await c.post(`/api/review/${id}`, { outcome })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}
const itemIds = (r: any): number[] => r.items.map((i: any) => i.bookmark.id)
const groupOf = (i: any) => i.bookmark.categories[0]?.slug ?? 'none'

beforeAll(async () => {
  t = await startTestServer()
  t.clock.now = NOW
  const admin = await signedIn(t, 'admin', 'admin@example.com')
  ids = await importPosts(admin, posts)
})
afterAll(async () => t?.close())

describe('daily review', () => {
  it('gives five by default, up to 50 with n, and refuses other n', async () => {
    const c = await member('n@example.com')
    const r = await review(c)
    expect(r.n).toBe(5)
    expect(r.items).toHaveLength(5)
    expect(r.nothingLeft).toBe(false)
    expect(r.items.every((i: any) => i.bookmark.state && i.reason === 'unread')).toBe(true)
    expect((await review(c, 50)).items).toHaveLength(40)
    for (const q of ['n=0', 'n=51', 'n=abc', 'n=-1']) {
      const res = await c.get(`/api/review?${q}`)
      expect(res.status, q).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
    }
    expect((await c.post('/api/review/999999', { outcome: 'keep' })).status).toBe(404)
    expect((await c.post(`/api/review/${ids.get('2000')}`, { outcome: 'forget' })).status).toBe(400)
    expect((await c.post(`/api/review/${ids.get('2000')}`, {})).status).toBe(400)
  })

  it('is the same for a member, day and library, and changes with the day', async () => {
    const c = await member('same@example.com')
    const first = itemIds(await review(c))
    expect(itemIds(await review(c))).toEqual(first)
    const days: number[][] = []
    for (let d = 1; d <= 3; d++) {
      await at(d, [c, 'same@example.com'])
      days.push(itemIds(await review(c)))
    }
    await at(0, [c, 'same@example.com'])
    expect(itemIds(await review(c))).toEqual(first)
    expect(days.some((d) => JSON.stringify(d) !== JSON.stringify(first))).toBe(true)
  })

  it('spreads the handful across categories', async () => {
    const c = await member('spread@example.com')
    const r = await review(c, 4)
    expect(new Set(r.items.map(groupOf)).size).toBe(4)
  })

  it('never shows a hidden post, and shows starred posts first', async () => {
    const c = await member('hide@example.com')
    const hidden = posts.slice(0, 30).map((p) => ids.get(p.postId)!)
    expect((await c.post('/api/bookmarks/state', { ids: hidden, hidden: true })).body.affected).toBe(30)
    const left = itemIds(await review(c, 50))
    expect(left).toHaveLength(10)
    expect(left.some((id) => hidden.includes(id))).toBe(false)
    const starred = [ids.get('2031')!, ids.get('2035')!]
    await c.post('/api/bookmarks/state', { ids: starred, starred: true })
    const r = await review(c)
    expect(r.items.slice(0, 2).map((i: any) => i.reason)).toEqual(['starred', 'starred'])
    expect(itemIds(r).slice(0, 2).sort()).toEqual([...starred].sort())
  })

  it('schedules a kept post later and later over simulated days; done never comes back; later is tomorrow; streak', async () => {
    const c = await member('days@example.com')
    const me: [Client, string] = [c, 'days@example.com']
    const day0 = await review(c)
    const [x, y, ...rest] = itemIds(day0)
    const kept = await answer(c, x, 'keep')
    expect(kept).toMatchObject({ outcome: 'keep', intervalDays: 2 })
    expect((await answer(c, y, 'later')).intervalDays).toBe(1)
    for (const id of rest) expect((await answer(c, id, 'done')).nextDue).toBeNull()
    const finished = await review(c)
    expect(finished).toMatchObject({ items: [], nothingLeft: true })
    expect(finished.streak).toMatchObject({ current: 1, answeredToday: 5 })
    const done = new Set(rest)

    await at(1, me)
    let r = await review(c, 50)
    expect(itemIds(r)).not.toContain(x)
    expect(r.items.find((i: any) => i.bookmark.id === y)?.reason).toBe('due')
    expect(r.streak.current).toBe(1) // yesterday counts until today is over
    await answer(c, y, 'done')
    done.add(y)
    expect((await review(c)).streak.current).toBe(2)

    // the kept post comes back after 2 days, then 5, then 13: later and later
    const gaps: number[] = []
    let last = 0
    for (let d = 2; d <= 40 && gaps.length < 3; d++) {
      await at(d, me)
      r = await review(c)
      expect(itemIds(r).some((id) => done.has(id)), `day ${d}`).toBe(false)
      const item = r.items.find((i: any) => i.bookmark.id === x)
      if (!item) continue
      expect(item.reason).toBe('due')
      gaps.push(d - last)
      last = d
      await answer(c, x, 'keep')
    }
    expect(gaps).toEqual([2, 5, 13])
    expect(r.streak.current).toBe(0) // before today's answer: days without one broke the run
    r = await review(c)
    expect(r.streak.longest).toBeGreaterThanOrEqual(3)
    expect(r.streak.current).toBe(1)
    await at(0)
  })

  it('is each member\'s own: one member\'s answers change nothing for another', async () => {
    const a = await member('own-a@example.com')
    const b = await member('own-b@example.com')
    const before = itemIds(await review(b))
    for (const id of itemIds(await review(a))) await answer(a, id, 'done')
    expect(itemIds(await review(b))).toEqual(before)
    expect((await review(b)).streak).toEqual({ current: 0, longest: 0, answeredToday: 0 })
  })

  it('viewers have their own review too', async () => {
    const v = await signedIn(t, 'viewer', 'viewer@example.com')
    const r = await review(v)
    expect(r.items).toHaveLength(5)
    expect((await answer(v, itemIds(r)[0], 'keep')).streak.answeredToday).toBe(1)
  })
})
