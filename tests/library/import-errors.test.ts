import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'

/** Uploads `text` under `name` as the UI does (multipart part `file`). */
async function send(admin: Client, name: string, text: string) {
  const fd = new FormData()
  fd.append('file', new Blob([text]), name)
  return admin.request('POST', '/api/import', fd)
}

describe('POST /api/import: a file Sheaf cannot read is refused in plain words naming the file and the reason', () => {
  let t: TestServer
  let admin: Client
  beforeAll(async () => {
    t = await startTestServer()
    admin = await signedIn(t, 'admin')
  })
  afterAll(async () => t?.close())

  it('says where a JSON file stops being JSON', async () => {
    const res = await send(admin, 'bookmarks.json', '{"bookmarks": [}')
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', error: 'bookmarks.json: not valid JSON at line 1, column 16.' })
    const cut = await send(admin, 'cut.json', '[\n  {"id_str": "1", "full_text": "hello"')
    expect(cut.body.error).toBe('cut.json: the file ends before its JSON is complete (truncated?) at line 2, column 39 (character 40).')
  })

  it('says a text file is not an export, and what Sheaf reads', async () => {
    const res = await send(admin, 'notes.txt', 'Remember to buy milk.\nAnd bread.\n')
    expect(res.status).toBe(400)
    expect(res.body.error).toBe("notes.txt: not an export: neither JSON nor an export's CSV. Sheaf reads X archives (the .zip, or its tweets.js or like.js), X bookmark captures (GraphQL responses), and exports from twitter-web-exporter, Twillot, Siftly and Sheaf itself.")
    // The long list of formats is there for a help list, not in the sentence.
    expect(res.body.error).not.toMatch(/id_str|full_text|entities/)
  })

  it('names the fields of JSON that is no export, and an empty file', async () => {
    const other = await send(admin, 'settings.json', '{"theme": "dark", "fontSize": 14}')
    expect(other.body.error).toMatch(/^settings\.json: JSON, but not an export Sheaf knows \(its first fields: theme, fontSize\)\. Sheaf reads /)
    const empty = await send(admin, 'empty.json', '')
    expect(empty.status).toBe(400)
    expect(empty.body.error).toBe('empty.json: empty (0 bytes).')
    expect((await admin.get('/api/bookmarks')).body.total).toBe(0)
  })
})
