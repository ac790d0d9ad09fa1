import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { sheafExport, type PostSpec } from '../search/sheaf-export.ts'

const post = (id: number, at: string): PostSpec => ({ postId: String(id), handle: 'h', at, text: `post ${id}` })

async function importPosts(admin: Client, posts: PostSpec[], name: string) {
  const fd = new FormData()
  fd.append('file', new Blob([sheafExport(posts, [])]), name)
  const res = await admin.request('POST', '/api/import', fd)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
}

describe('GET /api/bookmarks?sort=imported: the posts an import just added come first ("Show them")', () => {
  let t: TestServer
  let admin: Client
  beforeAll(async () => {
    t = await startTestServer()
    admin = await signedIn(t, 'admin')
  })
  afterAll(async () => t?.close())

  it('orders by import, newest import first, whatever the posts\' own dates', async () => {
    await importPosts(admin, [post(1001, '2024-05-01T00:00:00Z'), post(1002, '2024-06-01T00:00:00Z')], 'first.json')
    // The second file holds older posts: by date they would come last.
    await importPosts(admin, [post(2001, '2019-01-01T00:00:00Z'), post(2002, '2019-02-01T00:00:00Z')], 'second.json')
    const byImport = (await admin.get('/api/bookmarks?sort=imported')).body.bookmarks.map((b: { postId: string }) => b.postId)
    expect(byImport.slice(0, 2).sort()).toEqual(['2001', '2002'])
    expect(byImport.slice(2).sort()).toEqual(['1001', '1002'])
    const byDate = (await admin.get('/api/bookmarks?sort=newest')).body.bookmarks.map((b: { postId: string }) => b.postId)
    expect(byDate[0]).toBe('1002')
    const bad = await admin.get('/api/bookmarks?sort=whenever')
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/newest, oldest, popular, imported/)
  })
})
