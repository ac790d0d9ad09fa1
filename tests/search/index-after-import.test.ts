import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { sheafExport } from './sheaf-export.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

const count = (t: TestServer, sql: string) => (sqliteOf(t.sheaf.db).prepare(sql).get() as { n: number }).n
const queued = (t: TestServer) =>
  (sqliteOf(t.sheaf.db).prepare('select (select count(*) from search_queue) + (select count(*) from search_fts_queue) as n').get() as { n: number }).n

describe('search index after an import', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer()
  })
  afterAll(() => t.close())

  it('indexes the imported posts in the background, before anyone searches', async () => {
    const admin = await signedIn(t, 'admin')
    const posts = Array.from({ length: 40 }, (_, i) => ({ postId: String(5000 + i), handle: 'h', at: Date.UTC(2024, 0, 1 + i), text: `post number ${i} about gardening` }))
    const fd = new FormData()
    fd.append('file', new Blob([sheafExport(posts)]), 'library.json')
    expect((await admin.request('POST', '/api/import', fd)).status).toBe(200)
    const deadline = Date.now() + 15_000
    while (queued(t) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(queued(t)).toBe(0)
    const indexed = sqliteOf(t.sheaf.db).prepare("select count(*) as n from search_fts where search_fts match 'gardening'").get() as { n: number }
    expect(indexed.n).toBe(40)
  })

  it("has the import's posts in the word index when the import answers (none left for a pass over their text)", async () => {
    const admin = await signedIn(t, 'admin')
    // More than the slices take on this thread after an import: the rest would go to the maintenance thread.
    const posts = Array.from({ length: 700 }, (_, i) => ({ postId: String(9000 + i), handle: 'h', at: Date.UTC(2024, 1, 1, 0, i), text: `note ${i} on beekeeping` }))
    const fd = new FormData()
    fd.append('file', new Blob([sheafExport(posts)]), 'bees.json')
    expect((await admin.request('POST', '/api/import', fd)).status).toBe(200)
    expect(count(t, 'select count(*) as n from search_fts_queue')).toBe(0)
    expect(count(t, "select count(*) as n from search_fts where search_fts match 'beekeeping'")).toBe(700)
  })
})
