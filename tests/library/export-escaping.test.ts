import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { upload } from './helpers.ts'

// Issue 14, finding 5: the Markdown export (an Obsidian vault, which renders raw HTML) keeps HTML
// from notes and posts inert.

describe('markdown export escapes HTML', () => {
  let t: TestServer
  let admin: Client
  beforeAll(async () => {
    t = await startTestServer()
    admin = await signedIn(t, 'admin')
    const res = await upload(admin, { name: 'p.json', content: JSON.stringify([
      { id_str: '1855222380982907001', full_text: 'look <img src=x onerror=alert(1)> AT&T', created_at: 'Sat Nov 09 12:14:18 +0000 2024' },
    ]) })
    expect(res.body.imported).toBe(1)
  })
  afterAll(async () => t?.close())

  it('a note\'s <script> and a post\'s <img onerror> arrive as text, not HTML', async () => {
    const [b] = (await admin.get('/api/bookmarks')).body.bookmarks
    expect((await admin.put(`/api/bookmarks/${b.id}/note`, { text: '<script>alert("note")</script>\n> a quote stays a quote' })).status).toBe(200)
    const res = await fetch(`${t.url}/api/export?format=markdown`, { headers: { cookie: admin.cookie! } })
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()))
    const note = strFromU8(files[Object.keys(files).find((n) => n.includes('1855222380982907001'))!])
    expect(note).not.toMatch(/<script/i)
    expect(note).not.toMatch(/<img/i)
    expect(note).toContain('&lt;script>alert("note")&lt;/script>')
    expect(note).toContain('look &lt;img src=x onerror=alert(1)> AT&amp;T')
    expect(note).toContain('\n> a quote stays a quote')
  })
})
