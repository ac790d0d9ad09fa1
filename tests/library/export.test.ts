import { unzipSync, strFromU8 } from 'fflate'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { clientsByRole, signedIn, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, upload } from './helpers.ts'
import { describeIf } from '../support/skip.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

async function raw(client: Client, path: string): Promise<Response> {
  return fetch(client.base + path, { headers: { cookie: client.cookie! } })
}

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('export', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  let all: any[]
  let target: any
  beforeAll(async () => {
    t = await startTestServer()
    c = await clientsByRole(t)
    await upload(c.admin, sharedFixture('exports/graphql/twscrape_raw_search.json'))
    all = await allBookmarks(c.admin)
    target = all.find((b) => b.postId === '2074976613713031490')
    // knowledge, tags and media analysis as the pipeline would write them
    const db = sqliteOf(t.sheaf.db)
    const related = all.find((b) => b.id !== target.id)
    db.prepare(`insert into knowledge (bookmark_id, summary, action, sentiment, confidence, related_ids, entities, kind, provider, analyzed_at)
      values (?, 'Tesla sales in Europe rose', 'read_later', 'positive', 0.83, ?, '{"orgs":["Tesla"]}', 'news', 'local', 1750000000000)`).run(target.id, JSON.stringify([related.id]))
    for (const name of ['tesla', 'ev sales']) {
      db.prepare('insert or ignore into tags (name) values (?)').run(name)
      db.prepare('insert into bookmark_tags (bookmark_id, tag_id) select ?, id from tags where name = ?').run(target.id, name)
    }
    db.prepare("update media set ocr_text = 'weekly chart', description = 'a bar chart' where bookmark_id = ? and position = 0").run(target.id)
    await c.member.put(`/api/bookmarks/${target.id}/categories`, { slugs: ['business-startups', 'news-politics'] })
    await c.admin.post('/api/categories', { name: 'Cars', slug: 'cars', color: '#123456', description: 'four wheels' })
    await c.admin.post(`/api/bookmarks/${target.id}/categories`, { slug: 'cars' })
    await c.member.put(`/api/bookmarks/${target.id}/note`, { text: '=HYPERLINK("http://evil")' })
    // a post whose text starts like a formula
    db.prepare("update bookmarks set text = '=1+2 looks like a formula' where id = ?").run(related.id)
  })
  afterAll(async () => t?.close())

  it('is for members and admins; viewers are refused; bad formats are 400', async () => {
    expect((await c.viewer.get('/api/export?format=json')).status).toBe(403)
    const bad = await c.member.get('/api/export?format=pdf')
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatch(/^format:/)
  })

  it('csv: UTF-8 with a BOM, a filename, one row per post, formulas neutralised', async () => {
    const res = await raw(c.member, '/api/export?format=csv')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/text\/csv/)
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="sheaf-export-\d{4}-\d{2}-\d{2}\.csv"/)
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const rows = parse(Buffer.from(bytes).toString('utf8').slice(1), { columns: true }) as Record<string, string>[]
    expect(rows).toHaveLength(all.length)
    const row = rows.find((r) => r.postId === target.postId)!
    expect(row.authorHandle).toBe('piloly')
    expect(row.text).toBe(target.text)
    expect(row.categories.split('; ').sort()).toEqual(['Business & Startups', 'Cars', 'News & Politics'])
    expect(row.tags).toBe('ev sales; tesla')
    expect(row.note).toBe(`'=HYPERLINK("http://evil")`)
    expect(rows.find((r) => r.text.includes('looks like a formula'))!.text).toBe("'=1+2 looks like a formula")
    expect(rows.every((r) => !/^[=+\-@\t\r]/.test(Object.values(r).join('\n').split('\n')[0]))).toBe(true)
    // filters apply
    const one = parse((await (await raw(c.member, '/api/export?format=csv&category=cars')).text()).slice(1), { columns: true })
    expect(one).toHaveLength(1)
  })

  it('markdown: a zip of notes with YAML front matter, folders per category, and an index', async () => {
    const res = await raw(c.member, '/api/export?format=markdown')
    expect(res.headers.get('content-type')).toBe('application/zip')
    expect(res.headers.get('content-disposition')).toMatch(/filename="sheaf-vault-.*\.zip"/)
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    const names = Object.keys(files)
    expect(names).toContain('Sheaf/Index.md')
    expect(names.filter((n) => n.endsWith('.md') && n !== 'Sheaf/Index.md')).toHaveLength(all.length)
    const note = names.find((n) => n.includes(target.postId))!
    expect(note.startsWith('Sheaf/Business & Startups/')).toBe(true)
    const text = strFromU8(files[note])
    expect(text.startsWith('---\n')).toBe(true)
    expect(text).toContain('author: "@piloly"')
    expect(text).toContain(`postId: "${target.postId}"`)
    expect(text).toContain('  - "Cars"')
    expect(text).toContain('  - "ev-sales"')
    expect(text).toContain('Iceland (~60% of Tesla sales in Europe)')
    expect(strFromU8(files['Sheaf/Index.md'])).toContain('**Cars** (1)')
    const flat = unzipSync(new Uint8Array(await (await raw(c.member, '/api/export?format=markdown&layout=flat')).arrayBuffer()))
    expect(Object.keys(flat).filter((n) => n.startsWith('Sheaf/Posts/'))).toHaveLength(all.length)
  })

  it('json: Sheaf format, re-imports losslessly into a fresh library', async () => {
    const res = await raw(c.admin, '/api/export?format=json')
    expect(res.headers.get('content-disposition')).toMatch(/filename="sheaf-export-.*\.json"/)
    const text = await res.text()
    const doc = JSON.parse(text)
    expect(doc).toMatchObject({ format: 'sheaf-export', version: 1 })
    expect(doc.bookmarks).toHaveLength(all.length)
    const memberEmail = (await c.member.get('/api/auth/me')).body.user.email

    const fresh = await startTestServer()
    try {
      const admin2 = (await clientsByRole(fresh)).admin
      const member2 = await signedIn(fresh, 'member', memberEmail)
      const res2 = await upload(admin2, { name: 'sheaf-export.json', content: text })
      expect(res2.body).toMatchObject({ format: 'sheaf', imported: all.length, errors: 0 })
      const b = (await allBookmarks(admin2)).find((x) => x.postId === target.postId)
      const d = (await member2.get(`/api/bookmarks/${b.id}`)).body
      const orig = (await c.member.get(`/api/bookmarks/${target.id}`)).body
      for (const k of ['postId', 'text', 'authorHandle', 'authorName', 'postCreatedAt', 'importedAt', 'source', 'urls', 'engagement', 'rawJson', 'quoted', 'lang']) {
        expect(d[k], k).toEqual(orig[k])
      }
      expect(d.media.map(({ localUrl: _l, ...m }: any) => m)).toEqual(orig.media.map(({ localUrl: _l, ...m }: any) => m))
      expect(d.categories.map((x: any) => x.slug).sort()).toEqual(['business-startups', 'cars', 'news-politics'])
      expect(d.categories.find((x: any) => x.slug === 'cars').color).toBe('#123456')
      expect(d.note).toBe('=HYPERLINK("http://evil")')
      expect(d.knowledge).toMatchObject({ summary: 'Tesla sales in Europe rose', action: 'read_later', sentiment: 'positive', confidence: 0.83 })
      expect(d.knowledge.tags.sort()).toEqual(['ev sales', 'tesla'])
      const relatedPost = all.find((x) => x.id === orig.knowledge.relatedIds[0]).postId
      const mapped = (await allBookmarks(admin2)).find((x) => x.postId === relatedPost).id
      expect(d.knowledge.relatedIds).toEqual([mapped])
      const cats2 = (await admin2.get('/api/categories')).body.categories
      expect(cats2.find((x: any) => x.slug === 'cars')).toMatchObject({ name: 'Cars', description: 'four wheels', bookmarkCount: 1 })
      const db2 = sqliteOf(fresh.sheaf.db)
      expect(db2.prepare('select ocr_text, description from media where bookmark_id = ? and position = 0').get(b.id)).toEqual({ ocr_text: 'weekly chart', description: 'a bar chart' })
      const assigned = db2.prepare('select c.slug, bc.assigned_by from bookmark_categories bc join categories c on c.id = bc.category_id where bc.bookmark_id = ? order by c.slug').all(b.id)
      expect(assigned).toEqual([{ slug: 'business-startups', assigned_by: 'user' }, { slug: 'cars', assigned_by: 'user' }, { slug: 'news-politics', assigned_by: 'user' }])
      // and exporting again gives the same posts back
      const again = JSON.parse(await (await raw(admin2, '/api/export?format=json')).text())
      const strip = (x: any) => ({ ...x, knowledge: x.knowledge && { ...x.knowledge } })
      expect(again.bookmarks.map(strip)).toEqual(doc.bookmarks.map(strip))
      // re-importing the same export is idempotent
      expect((await upload(admin2, { name: 'again.json', content: text })).body).toMatchObject({ imported: 0, duplicates: all.length })
    } finally {
      await fresh.close()
    }
  })

  it('a member export carries only that member\'s notes', async () => {
    await c.admin.put(`/api/bookmarks/${target.id}/note`, { text: 'admin private' })
    const doc = JSON.parse(await (await raw(c.member, '/api/export?format=json')).text())
    const b = doc.bookmarks.find((x: any) => x.postId === target.postId)
    expect(b.notes.map((n: any) => n.text)).toEqual(['=HYPERLINK("http://evil")'])
    const full = JSON.parse(await (await raw(c.admin, '/api/export?format=json')).text())
    expect(full.bookmarks.find((x: any) => x.postId === target.postId).notes).toHaveLength(2)
  })
})
