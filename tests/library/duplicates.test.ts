import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeDatabase, openDatabase } from '../../src-main/store/index.ts'
import { Client, PASSWORD, clientsByRole, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, upload } from './helpers.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { upsertKnowledge } from '../../src-main/store/queries/knowledge.ts'

/** A post in Sheaf's own export format: every field is ours to choose. */
function post(postId: string, o: Record<string, unknown> = {}) {
  return {
    postId, text: `post ${postId}`, authorHandle: 'alice', authorName: 'Alice', postCreatedAt: '2026-01-02T03:04:05.000Z',
    urls: [], media: [], engagement: { likes: null, reposts: null, replies: null, quotes: null, bookmarks: null, views: null },
    lang: 'en', conversationId: null, inReplyToPostId: null, quoted: null, source: 'bookmark', rawJson: JSON.stringify({ rest_id: postId }),
    importedAt: '2026-01-03T00:00:00.000Z', ...o,
  }
}
const link = (expandedUrl: string) => ({ url: 'https://t.co/abc', expandedUrl, displayUrl: null })
const quoted = (postId: string) => ({ ...post(postId, { authorHandle: 'quoted' }), importedAt: undefined, source: undefined, rawJson: undefined, quoted: undefined })
const photo = (url: string) => ({ type: 'photo', url, thumbnailUrl: url, videoUrl: null, altText: null, width: null, height: null, durationMs: null })
const sheafFile = (bookmarks: unknown[], name = 'sheaf.json') => ({
  name,
  content: JSON.stringify({ format: 'sheaf-export', version: 1, exportedAt: '2026-01-04T00:00:00.000Z', categories: [], bookmarks }),
})

let t: TestServer
let admin: Client
let member: Client
let viewer: Client
const idOf = new Map<string, number>()

async function importPosts(c: Client, posts: unknown[]) {
  const res = await upload(c, sheafFile(posts))
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  for (const b of await allBookmarks(c)) idOf.set(b.postId, b.id)
  return res.body
}
const detail = async (c: Client, postId: string) => {
  const res = await c.get(`/api/bookmarks/${idOf.get(postId)}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}
const dupsOf = async (postId: string) =>
  Object.fromEntries((await detail(admin, postId)).duplicates.map((d: { postId: string; reasons: string[] }) => [d.postId, d.reasons]))

beforeAll(async () => {
  t = await startTestServer()
  ;({ admin, member, viewer } = await clientsByRole(t))
  await importPosts(admin, [
    post('101', { text: 'Worth a read on build caches', urls: [link('https://www.Example.com/articles/build-caches/?utm_source=twitter&utm_medium=social')] }),
    post('102', { authorHandle: 'bob', text: 'Great post', urls: [link('https://example.com/articles/build-caches?fbclid=XYZ')] }),
    post('103', { text: 'Shipping the new parser today, it is twice as fast as the old one and half the size' }),
    post('104', { authorHandle: 'carol', text: 'RT @alice: Shipping the new parser today, it is twice as fast as the old one and half…' }),
    post('105', { text: 'This is the announcement everyone was waiting for', quoted: quoted('900') }),
    post('106', { authorHandle: 'dave', text: 'Finally, after two years of work', quoted: quoted('900') }),
    post('900', { authorHandle: 'quoted', text: 'We are launching version two of the engine today' }),
    post('107', { text: 'the weather is lovely this spring in the mountains' }),
    post('108', { authorHandle: 'erin', text: 'spring cleaning checklist for the garage this weekend' }),
    post('109', { text: 'Our release notes for the spring update are out', urls: [link('https://news.example.org/spring-update')] }),
    post('110', { text: 'Las notas de la versión de primavera ya están publicadas', lang: 'es', urls: [link('https://news.example.org/spring-update/')] }),
  ])
})
afterAll(() => t.close())

describe('finding duplicates (GET /api/bookmarks/:id)', () => {
  it('the same link, written with different tracking parameters, www. and a trailing slash', async () => {
    expect(await dupsOf('101')).toEqual({ 102: ['same_link'] })
    expect(await dupsOf('102')).toEqual({ 101: ['same_link'] })
  })

  it('a retweet written "RT @a: …" and its original', async () => {
    expect(await dupsOf('103')).toEqual({ 104: ['same_text'] })
    const d = (await detail(admin, '104')).duplicates[0]
    expect(d).toEqual({ id: idOf.get('103'), postId: '103', authorHandle: 'alice', text: expect.stringMatching(/^Shipping the new parser/), reasons: ['same_text'] })
  })

  it('two quotes of one post, and the quoted post itself', async () => {
    expect(await dupsOf('105')).toEqual({ 106: ['same_quote'], 900: ['same_quote'] })
    expect(await dupsOf('900')).toEqual({ 105: ['same_quote'], 106: ['same_quote'] })
  })

  it('two posts sharing only a word are not duplicates', async () => {
    expect(await dupsOf('107')).toEqual({})
    expect(await dupsOf('108')).toEqual({})
  })

  it('the same link from the same author in another language is a likely translation', async () => {
    expect(await dupsOf('109')).toEqual({ 110: ['same_link', 'translation'] })
  })

  it('the excerpt is at most 200 characters and user text is sent as text', async () => {
    await importPosts(admin, [
      post('120', { text: `<b>same</b> words here and there ${'x'.repeat(300)}` }),
      post('121', { authorHandle: 'zed', text: `<b>same</b> words here and there ${'x'.repeat(300)}` }),
    ])
    const [d] = (await detail(admin, '120')).duplicates
    expect(d.text).toHaveLength(200)
    expect(d.text.startsWith('<b>same</b>')).toBe(true)
  })
})

describe('merging (POST /api/bookmarks/:id/merge)', () => {
  let slugs: string[]
  beforeAll(async () => {
    slugs = (await admin.get('/api/categories')).body.categories.map((c: { slug: string }) => c.slug)
    await importPosts(admin, [
      post('201', {
        text: 'Kept post about the conference', urls: [link('https://conf.example.com/2026')], media: [photo('https://pbs.example/1.jpg')],
        engagement: { likes: 5, reposts: 1, replies: null, quotes: null, bookmarks: null, views: null },
      }),
      post('202', {
        authorHandle: 'bob', text: 'The other record of the conference', source: 'like', urls: [link('https://conf.example.com/2026?utm_source=x')],
        media: [photo('https://pbs.example/1.jpg'), photo('https://pbs.example/2.jpg')],
        engagement: { likes: 9, reposts: 0, replies: 3, quotes: null, bookmarks: null, views: 100 }, tags: ['conference'],
        rawJson: '{"rest_id":"202","original":true}',
      }),
    ])
  })

  it('viewers may not merge (403); unknown posts are 404; a post with itself is 400; bad bodies are 400', async () => {
    const [k, o] = [idOf.get('201')!, idOf.get('202')!]
    const v = await viewer.post(`/api/bookmarks/${k}/merge`, { otherId: o })
    expect(v.status).toBe(403)
    expect(v.body).toEqual({ error: expect.stringContaining('As a viewer you can'), code: 'FORBIDDEN' })
    expect(await member.post(`/api/bookmarks/999999/merge`, { otherId: o })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', error: expect.any(String) } })
    expect(await member.post(`/api/bookmarks/${k}/merge`, { otherId: 999999 })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } })
    expect(await member.post(`/api/bookmarks/${k}/merge`, { otherId: k })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } })
    expect(await member.post(`/api/bookmarks/${k}/merge`, { otherId: 'two' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } })
    expect(await member.post(`/api/bookmarks/${k}/merge`, {})).toMatchObject({ status: 400, body: { code: 'VALIDATION_ERROR' } })
    // nothing changed
    expect((await detail(admin, '202')).postId).toBe('202')
    expect((await detail(admin, '201')).merged).toEqual([])
  })

  it('keeps both records\' data: notes of two members, categories, tags, media, larger engagement, the other record', async () => {
    const [k, o] = [idOf.get('201')!, idOf.get('202')!]
    const other = await signedIn(t, 'member')
    expect((await member.put(`/api/bookmarks/${k}/note`, { text: 'note on the kept one' })).status).toBe(200)
    expect((await member.put(`/api/bookmarks/${o}/note`, { text: 'note on the other one' })).status).toBe(200)
    expect((await other.put(`/api/bookmarks/${o}/note`, { text: 'second member, other post' })).status).toBe(200)
    expect((await member.put(`/api/bookmarks/${k}/categories`, { slugs: [slugs[0]] })).status).toBe(200)
    expect((await member.put(`/api/bookmarks/${o}/categories`, { slugs: [slugs[1]] })).status).toBe(200)
    expect(Object.keys(await dupsOf('201'))).toEqual(['202'])

    const res = await member.post(`/api/bookmarks/${k}/merge`, { otherId: o })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const kept = res.body
    expect(kept.id).toBe(k)
    expect(kept.postId).toBe('201')
    expect(kept.note).toBe('note on the kept one\n\nnote on the other one')
    expect(kept.categories.map((c: { slug: string }) => c.slug).sort()).toEqual([slugs[0], slugs[1]].sort())
    expect(kept.media.map((m: { url: string }) => m.url)).toEqual(['https://pbs.example/1.jpg', 'https://pbs.example/2.jpg'])
    expect(kept.engagement).toEqual({ likes: 9, reposts: 1, replies: 3, quotes: null, bookmarks: null, views: 100 })
    expect(kept.merged).toEqual([{
      postId: '202', authorHandle: 'bob', authorName: 'Alice', text: 'The other record of the conference', postCreatedAt: '2026-01-02T03:04:05.000Z',
      importedAt: expect.any(String), source: 'like', mergedAt: expect.any(String),
    }])
    expect(kept.duplicates).toEqual([])
    expect((await other.get(`/api/bookmarks/${k}`)).body.note).toBe('second member, other post')
    expect((await admin.get(`/api/bookmarks/${o}`)).status).toBe(404)
    expect((await admin.get('/api/bookmarks?tag=conference')).body.bookmarks.map((b: { id: number }) => b.id)).toEqual([k])
  })

  it('a post\'s related posts leave out those merged into it or deleted since the analysis', async () => {
    await importPosts(admin, [post('301', { text: 'kept' }), post('302', { text: 'merged away' }), post('303', { text: 'deleted' }), post('304', { text: 'still here' })])
    const [kept, merged, deleted, live] = ['301', '302', '303', '304'].map((p) => idOf.get(p)!)
    upsertKnowledge(t.sheaf.db, {
      bookmarkId: kept, summary: 'kept', action: 'reference', sentiment: 'neutral', confidence: 0.5, relatedIds: JSON.stringify([merged, deleted, live]),
      ossReport: null, entities: '{}', kind: null, provider: 'local', contentHash: null, analyzedAt: 1,
    })
    expect((await detail(admin, '301')).knowledge.relatedIds).toEqual([merged, deleted, live])
    expect((await member.post(`/api/bookmarks/${kept}/merge`, { otherId: merged })).body.knowledge.relatedIds).toEqual([deleted, live])
    expect((await admin.delete(`/api/bookmarks/${deleted}`)).status).toBe(204)
    expect((await detail(admin, '301')).knowledge.relatedIds).toEqual([live])
  })

  it('the JSON export carries the merged record, and importing the merged post again does not bring it back', async () => {
    const exp = await admin.get('/api/export?format=json')
    expect(exp.status).toBe(200)
    const doc = typeof exp.body === 'string' ? JSON.parse(exp.body) : exp.body
    const kept = doc.bookmarks.find((b: { postId: string }) => b.postId === '201')
    expect(doc.bookmarks.some((b: { postId: string }) => b.postId === '202')).toBe(false)
    expect(kept.merged).toEqual([expect.objectContaining({ postId: '202', authorHandle: 'bob', source: 'like', rawJson: '{"rest_id":"202","original":true}' })])

    const again = await upload(admin, sheafFile([post('202', { authorHandle: 'bob', text: 'The other record of the conference' })]))
    expect(again.body).toMatchObject({ imported: 0, duplicates: 1 })
    expect((await allBookmarks(admin)).some((b) => b.postId === '202')).toBe(false)

    // a fresh library restores the merged record from Sheaf's own format
    const fresh = await startTestServer()
    try {
      const c = await signedIn(fresh, 'admin')
      const r = await upload(c, { name: 'backup.json', content: JSON.stringify(doc) })
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      const list = await allBookmarks(c)
      expect(list.some((b) => b.postId === '202')).toBe(false)
      const id = list.find((b) => b.postId === '201').id
      expect((await c.get(`/api/bookmarks/${id}`)).body.merged).toEqual([expect.objectContaining({ postId: '202', authorHandle: 'bob', source: 'like' })])
      expect((await upload(c, sheafFile([post('202')]))).body).toMatchObject({ imported: 0, duplicates: 1 })
    } finally {
      await fresh.close()
    }
  })
})

describe('libraries from before duplicate keys (migration 0010 queues their posts)', () => {
  it('keys the queued posts in the background after a start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-dup-'))
    let s1: TestServer | null = await startTestServer({ dataDir })
    try {
      const c = await signedIn(s1, 'admin', 'fill@example.com')
      await upload(c, sheafFile([
        post('301', { urls: [link('https://example.net/a?utm_source=x')] }), post('302', { authorHandle: 'bob', urls: [link('https://example.net/a')] }),
      ]))
      const [a] = (await allBookmarks(c)).filter((b) => b.postId === '301')
      await s1.close()
      // as a library imported before migration 0010: no keys, every post queued (what the migration does)
      const db0 = openDatabase({ file: join(dataDir, 'sheaf.db') })
      sqliteOf(db0).exec('DELETE FROM post_keys; INSERT OR IGNORE INTO post_keys_queue (bookmark_id) SELECT id FROM bookmarks')
      closeDatabase(db0)
      s1 = await startTestServer({ dataDir })
      const db = sqliteOf(s1.sheaf.db)
      expect((db.prepare('SELECT count(*) AS n FROM post_keys_queue').get() as { n: number }).n).toBe(2)
      for (let i = 0; i < 100 && (db.prepare('SELECT count(*) AS n FROM post_keys_queue').get() as { n: number }).n > 0; i++) {
        await new Promise((r) => setTimeout(r, 50))
      }
      expect((db.prepare('SELECT count(*) AS n FROM post_keys_queue').get() as { n: number }).n).toBe(0)
      const c2 = new Client(s1.url)
      await c2.post('/api/auth/login', { email: 'fill@example.com', password: PASSWORD })
      expect((await c2.get(`/api/bookmarks/${a.id}`)).body.duplicates).toMatchObject([{ postId: '302', reasons: ['same_link'] }])
    } finally {
      await s1?.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
