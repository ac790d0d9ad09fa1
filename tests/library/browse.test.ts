import { afterAll, beforeAll, expect, it } from 'vitest'
import { clientsByRole, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, upload } from './helpers.ts'
import { describeIf } from '../support/skip.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('browsing, editing, categories, stats, mind map', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  let all: any[]
  beforeAll(async () => {
    t = await startTestServer()
    c = await clientsByRole(t)
    await upload(c.admin, sharedFixture('exports/derived/graphql_bookmarks_envelope_newschema.json'))
    await upload(c.admin, sharedFixture('exports/flat/x_bookmarks_fetchpy_excerpt.json'))
    all = await allBookmarks(c.admin)
  })
  afterAll(async () => t?.close())

  it('lists with the defaults, echoing page and limit, newest first', async () => {
    const res = await c.viewer.get('/api/bookmarks')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ total: 89, page: 1, limit: 20 })
    expect(res.body.bookmarks).toHaveLength(20)
    const dates = res.body.bookmarks.map((b: any) => Date.parse(b.postCreatedAt))
    expect(dates).toEqual([...dates].sort((a, b) => b - a))
    expect(Object.keys(res.body.bookmarks[0])).toEqual(expect.arrayContaining(['id', 'postId', 'text', 'authorHandle', 'authorName', 'postCreatedAt', 'importedAt', 'source', 'categories', 'media']))
  })

  it('clamps limit above 100 and refuses non-numbers and negatives naming the parameter', async () => {
    const big = await c.viewer.get('/api/bookmarks?limit=500')
    expect(big.status).toBe(200)
    expect(big.body.limit).toBe(100)
    expect(big.body.bookmarks).toHaveLength(89)
    for (const [q, field] of [['limit=abc', 'limit'], ['limit=-5', 'limit'], ['limit=0', 'limit'], ['page=x', 'page'], ['page=-1', 'page'], ['page=0', 'page'],
      ['sort=best', 'sort'], ['media=audio', 'media'], ['from=yesterday', 'from'], ['to=2024-13-45', 'to'], ['uncategorized=maybe', 'uncategorized']]) {
      const res = await c.viewer.get(`/api/bookmarks?${q}`)
      expect(res.status, q).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
      expect(res.body.error.startsWith(`${field}:`), res.body.error).toBe(true)
    }
  })

  it('pages without overlap and past the end gives an empty page with the total', async () => {
    const p1 = (await c.viewer.get('/api/bookmarks?limit=30&page=1')).body.bookmarks.map((b: any) => b.id)
    const p2 = (await c.viewer.get('/api/bookmarks?limit=30&page=2')).body.bookmarks.map((b: any) => b.id)
    const p3 = (await c.viewer.get('/api/bookmarks?limit=30&page=3')).body.bookmarks.map((b: any) => b.id)
    expect(new Set([...p1, ...p2, ...p3]).size).toBe(89)
    const past = (await c.viewer.get('/api/bookmarks?page=99')).body
    expect(past).toMatchObject({ bookmarks: [], total: 89, page: 99 })
  })

  it('sorts oldest and popular', async () => {
    const oldest = (await c.viewer.get('/api/bookmarks?sort=oldest&limit=100')).body.bookmarks
    const dates = oldest.map((b: any) => Date.parse(b.postCreatedAt))
    expect(dates).toEqual([...dates].sort((a, b) => a - b))
    const popular = (await c.viewer.get('/api/bookmarks?sort=popular&limit=100')).body.bookmarks
    const score = (b: any) => ['likes', 'reposts', 'replies', 'quotes', 'bookmarks'].reduce((s, k) => s + (b.engagement[k] ?? 0), 0)
    const scores = popular.map(score)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    expect(scores[0]).toBeGreaterThan(0)
  })

  it('filters by source, author, q, media, dates, tag', async () => {
    const bySource = (await c.viewer.get('/api/bookmarks?source=bookmark&limit=100')).body
    expect(bySource.total).toBe(all.filter((b) => b.source === 'bookmark').length)
    expect((await c.viewer.get('/api/bookmarks?source=nope')).body.total).toBe(0)

    const author = all.find((b) => b.authorHandle === 'piloly')
    for (const h of ['piloly', '@piloly', 'PILOLY']) {
      const r = (await c.viewer.get(`/api/bookmarks?author=${encodeURIComponent(h)}`)).body
      expect(r.total).toBe(all.filter((b) => b.authorHandle === 'piloly').length)
      expect(r.bookmarks.map((b: any) => b.id)).toContain(author.id)
    }
    // q matches words (any case, and the last word as a prefix), not text inside a word: "@teslaeurope" is no "europe"
    const words = (b: any) => `${b.text} ${b.authorHandle} ${b.authorName}`
    const q = (await c.viewer.get('/api/bookmarks?q=' + encodeURIComponent('tesla EUROPE'))).body
    expect(q.total).toBe(all.filter((b) => /\btesla\b/i.test(words(b)) && /\beurope/i.test(words(b))).length)
    expect(q.total).toBeLessThan(all.filter((b) => /tesla/i.test(words(b)) && /europe/i.test(words(b))).length)
    expect(q.bookmarks.map((b: any) => b.id)).toContain(author.id)
    const prefix = (await c.viewer.get('/api/bookmarks?q=europ&limit=100')).body
    expect(prefix.total).toBe(all.filter((b) => /\beurop/i.test(words(b))).length)
    // a q-only page is cut in memory from the index's matches; with another filter it is one SQL query: both agree
    for (const sort of ['newest', 'oldest', 'popular']) {
      for (const page of [1, 2, 3]) {
        const fast = (await c.viewer.get(`/api/bookmarks?q=the&sort=${sort}&limit=7&page=${page}`)).body
        const sql = (await c.viewer.get(`/api/bookmarks?q=the&sort=${sort}&limit=7&page=${page}&from=1970-01-01`)).body
        expect(fast.total).toBeGreaterThan(14)
        expect(fast.total).toBe(sql.total)
        expect(fast.bookmarks.map((b: any) => b.id)).toEqual(sql.bookmarks.map((b: any) => b.id))
      }
    }
    // nothing to look up as a word: matched as a substring
    const flag = (await c.viewer.get('/api/bookmarks?q=' + encodeURIComponent('🇪🇺') + '&limit=100')).body
    expect(flag.total).toBe(all.filter((b) => words(b).includes('🇪🇺')).length)
    expect(flag.total).toBeGreaterThan(0)

    const withMedia = (await c.viewer.get('/api/bookmarks?media=any&limit=100')).body
    expect(withMedia.total).toBe(all.filter((b) => b.media.length > 0).length)
    const none = (await c.viewer.get('/api/bookmarks?media=none&limit=100')).body
    expect(none.total + withMedia.total).toBe(89)
    const photo = (await c.viewer.get('/api/bookmarks?media=photo&limit=100')).body
    expect(photo.total).toBe(all.filter((b) => b.media.some((m: any) => m.type === 'photo')).length)
    const video = (await c.viewer.get('/api/bookmarks?media=video&limit=100')).body
    expect(video.total).toBe(all.filter((b) => b.media.some((m: any) => m.type !== 'photo')).length)

    const day = author.postCreatedAt.slice(0, 10)
    const sameDay = (await c.viewer.get(`/api/bookmarks?from=${day}&to=${day}&limit=100`)).body
    expect(sameDay.total).toBe(all.filter((b) => b.postCreatedAt.startsWith(day)).length)
    const after = (await c.viewer.get(`/api/bookmarks?from=${encodeURIComponent(author.postCreatedAt)}&limit=100`)).body
    expect(after.total).toBe(all.filter((b) => b.postCreatedAt >= author.postCreatedAt).length)
    expect((await c.viewer.get('/api/bookmarks?tag=nothing-here')).body.total).toBe(0)
  })

  it('shows the detail with rawJson, knowledge, quoted, note, lang; 404 and 400', async () => {
    const b = all.find((x) => x.postId === '2074976613713031490')
    const d = (await c.viewer.get(`/api/bookmarks/${b.id}`)).body
    expect(d).toMatchObject({ id: b.id, postId: b.postId, text: b.text, authorHandle: 'piloly', knowledge: null, note: null })
    expect(JSON.parse(d.rawJson).rest_id ?? JSON.parse(d.rawJson).legacy?.id_str).toBe(b.postId)
    expect('quoted' in d && 'lang' in d).toBe(true)
    expect((await c.viewer.get('/api/bookmarks/999999')).status).toBe(404)
    expect((await c.viewer.get('/api/bookmarks/999999')).body.code).toBe('NOT_FOUND')
    expect((await c.viewer.get('/api/bookmarks/abc')).status).toBe(400)
  })

  it('edits per role: categories and notes (member, admin), viewer refused; pipeline removals are remembered', async () => {
    const [b1, b2] = all
    expect((await c.viewer.put(`/api/bookmarks/${b1.id}/categories`, { slugs: ['science'] })).status).toBe(403)
    expect((await c.viewer.put(`/api/bookmarks/${b1.id}/note`, { text: 'x' })).status).toBe(403)
    expect((await c.viewer.delete(`/api/bookmarks/${b1.id}`)).status).toBe(403)
    expect((await c.viewer.post('/api/bookmarks/bulk', { ids: [b1.id], action: 'delete' })).status).toBe(403)

    const set = await c.member.put(`/api/bookmarks/${b1.id}/categories`, { slugs: ['science', 'design'] })
    expect(set.status).toBe(200)
    expect(set.body.categories.map((x: any) => x.slug).sort()).toEqual(['design', 'science'])
    expect(set.body.categories[0].color).toMatch(/^#[0-9a-f]{6}$/)
    expect((await c.member.put(`/api/bookmarks/${b1.id}/categories`, { slugs: ['no-such'] })).status).toBe(400)
    const removed = await c.member.delete(`/api/bookmarks/${b1.id}/categories/design`)
    expect(removed.body.categories.map((x: any) => x.slug)).toEqual(['science'])
    const added = await c.member.post(`/api/bookmarks/${b1.id}/categories`, { slug: 'programming' })
    expect(added.body.categories.map((x: any) => x.slug).sort()).toEqual(['programming', 'science'])

    // a pipeline assignment removed by a person is recorded as a rejection
    const db = sqliteOf(t.sheaf.db)
    const sci = (db.prepare("select id from categories where slug = 'science'").get() as { id: number }).id
    db.prepare("insert into bookmark_categories (bookmark_id, category_id, confidence, assigned_by, created_at) values (?, ?, 0.7, 'pipeline', 0)").run(b2.id, sci)
    expect((await c.member.delete(`/api/bookmarks/${b2.id}/categories/science`)).status).toBe(200)
    expect(db.prepare('select count(*) as n from category_rejections where bookmark_id = ? and category_id = ?').get(b2.id, sci)).toEqual({ n: 1 })
    expect(db.prepare("select assigned_by from bookmark_categories where bookmark_id = ?").all(b1.id)).toEqual([{ assigned_by: 'user' }, { assigned_by: 'user' }])

    // notes are private per person; empty deletes
    expect((await c.member.put(`/api/bookmarks/${b1.id}/note`, { text: 'mine' })).body.note).toBe('mine')
    expect((await c.member.get(`/api/bookmarks/${b1.id}`)).body.note).toBe('mine')
    expect((await c.admin.get(`/api/bookmarks/${b1.id}`)).body.note).toBeNull()
    expect((await c.member.put(`/api/bookmarks/${b1.id}/note`, { text: '' })).body.note).toBeNull()
    expect((await c.member.get(`/api/bookmarks/${b1.id}`)).body.note).toBeNull()
    expect((await c.member.put(`/api/bookmarks/${b1.id}/note`, { text: 5 })).status).toBe(400)
  })

  it('uncategorized and category filters agree with stats', async () => {
    const stats = (await c.viewer.get('/api/stats')).body
    const uncat = (await c.viewer.get('/api/bookmarks?uncategorized=true')).body.total
    expect(stats.uncategorizedBookmarks).toBe(uncat)
    expect(stats.categorizedBookmarks + stats.uncategorizedBookmarks).toBe(stats.totalBookmarks)
    expect(stats.categorizedBookmarks).toBe(1)
    const sci = (await c.viewer.get('/api/bookmarks?category=science')).body
    expect(sci.total).toBe(1)
    expect(sci.bookmarks[0].categories.map((x: any) => x.slug)).toContain('science')
    expect(stats).toMatchObject({ totalBookmarks: 89, totalCategories: 10 })
    expect(stats.totalMediaItems).toBe(all.reduce((n, b) => n + b.media.length, 0))
    expect(Date.parse(stats.recentImport)).not.toBeNaN()
    expect(stats.topCategories).toEqual([{ name: 'Programming', count: 1 }, { name: 'Science', count: 1 }])
  })

  it('bulk edits: add, remove, delete (member); unknown ids are ignored', async () => {
    const ids = all.slice(10, 15).map((b) => b.id)
    const add = await c.member.post('/api/bookmarks/bulk', { ids: [...ids, 999999], action: 'addCategory', slug: 'humor-memes' })
    expect(add.body).toEqual({ action: 'addCategory', affected: 5 })
    expect((await c.viewer.get('/api/bookmarks?category=humor-memes')).body.total).toBe(5)
    const rm = await c.member.post('/api/bookmarks/bulk', { ids: ids.slice(0, 2), action: 'removeCategory', slug: 'humor-memes' })
    expect(rm.body.affected).toBe(2)
    expect((await c.member.post('/api/bookmarks/bulk', { ids, action: 'addCategory' })).status).toBe(400)
    const del = await c.member.post('/api/bookmarks/bulk', { ids: ids.slice(3), action: 'delete' })
    expect(del.body.affected).toBe(2)
    expect((await c.member.delete(`/api/bookmarks/${ids[2]}`)).status).toBe(204)
    expect((await c.viewer.get(`/api/bookmarks/${ids[2]}`)).status).toBe(404)
    expect((await c.viewer.get('/api/bookmarks')).body.total).toBe(86)
  })

  it('categories: list for any role, CRUD/merge/delete for admins, defaults not re-created', async () => {
    const list = (await c.viewer.get('/api/categories')).body.categories
    expect(list).toHaveLength(10)
    expect(Object.keys(list[0]).sort()).toEqual(['bookmarkCount', 'color', 'description', 'id', 'name', 'slug'])
    expect(list.find((x: any) => x.slug === 'science').bookmarkCount).toBe(1)
    expect((await c.member.post('/api/categories', { name: 'Cooking' })).status).toBe(403)

    const made = await c.admin.post('/api/categories', { name: 'Cooking & Food', color: '#AA3300', description: 'recipes' })
    expect(made.status).toBe(201)
    expect(made.body.category).toMatchObject({ name: 'Cooking & Food', slug: 'cooking-food', color: '#aa3300', description: 'recipes', bookmarkCount: 0 })
    expect((await c.admin.post('/api/categories', { name: 'X', color: 'red' })).status).toBe(400)
    expect((await c.admin.post('/api/categories', { name: 'Y', slug: 'science' })).status).toBe(400)
    const id = made.body.category.id
    const renamed = await c.admin.patch(`/api/categories/${id}`, { name: 'Kitchen', color: '#112233' })
    expect(renamed.body.category).toMatchObject({ name: 'Kitchen', slug: 'cooking-food', color: '#112233' })
    expect((await c.admin.patch(`/api/categories/${id}`, { slug: 'kitchen' })).body.category.slug).toBe('kitchen')

    const b = all[20]
    await c.member.put(`/api/bookmarks/${b.id}/categories`, { slugs: ['kitchen', 'design'] })
    const science = list.find((x: any) => x.slug === 'science')
    await c.member.post(`/api/bookmarks/${b.id}/categories`, { slug: 'science' })
    const merged = await c.admin.post(`/api/categories/${id}/merge`, { into: science.id })
    expect(merged.status).toBe(200)
    expect(merged.body.category.bookmarkCount).toBe(2)
    expect((await c.viewer.get(`/api/bookmarks/${b.id}`)).body.categories.map((x: any) => x.slug).sort()).toEqual(['design', 'science'])
    expect((await c.admin.get(`/api/categories/${id}`)).status).toBe(404)

    const design = list.find((x: any) => x.slug === 'design')
    expect((await c.admin.delete(`/api/categories/${design.id}`)).status).toBe(204)
    expect((await c.viewer.get(`/api/bookmarks/${b.id}`)).body.categories.map((x: any) => x.slug)).toEqual(['science'])
    for (const x of (await c.admin.get('/api/categories')).body.categories) await c.admin.delete(`/api/categories/${x.id}`)
    expect((await c.admin.get('/api/categories')).body.categories).toEqual([])
    // a restart does not bring the defaults back
    const again = t.sheaf.library.categories.seedDefaults()
    expect(again).toBe(false)
    expect((await c.admin.get('/api/categories')).body.categories).toEqual([])
  })

  it('mind map: root, categories, posts, paging into a category', async () => {
    await c.admin.post('/api/categories', { name: 'Cars', color: '#123456' })
    const ids = all.slice(30, 55).map((b) => b.id)
    await c.member.post('/api/bookmarks/bulk', { ids, action: 'addCategory', slug: 'cars' })
    const map = (await c.viewer.get('/api/mindmap?perCategory=10')).body
    const root = map.nodes.find((n: any) => n.type === 'root')
    expect(root.count).toBe(86)
    const cars = map.nodes.find((n: any) => n.type === 'category' && n.label === 'Cars')
    expect(cars).toMatchObject({ count: 25, color: '#123456' })
    const carEdges = map.edges.filter((e: any) => e.source === cars.id && e.type === 'contains')
    expect(carEdges).toHaveLength(10)
    for (const e of carEdges) expect(map.nodes.find((n: any) => n.id === e.target).type).toBe('bookmark')
    expect(map.edges).toContainEqual({ source: 'root', target: cars.id, type: 'contains' })
    const page3 = (await c.viewer.get('/api/mindmap?category=cars&perCategory=10&page=3')).body
    expect(page3).toMatchObject({ page: 3, pages: 3 })
    expect(page3.nodes.filter((n: any) => n.type === 'bookmark')).toHaveLength(5)
    expect((await c.viewer.get('/api/mindmap?category=nope')).status).toBe(404)
    expect((await c.viewer.get('/api/mindmap?perCategory=abc')).status).toBe(400)
  })
})
