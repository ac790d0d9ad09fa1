import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookmarkIdByPostId } from '../../src-main/store/queries/bookmark-writes.ts'
import { knowledgeFor, upsertKnowledge } from '../../src-main/store/queries/knowledge.ts'
import { clientsByRole, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { sheafExport, type PostSpec } from './sheaf-export.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

// Regression: the search triggers' `INSERT OR IGNORE` into search_queue was overridden by an outer
// UPSERT's conflict policy, so re-analysing or re-importing a queued post failed on search_queue's key.
const POSTS: PostSpec[] = [
  { postId: '501', handle: 'alice', at: '2024-03-10T10:00:00Z', text: 'Indexes that made SQLite fast', summary: 'SQLite indexing tips', entities: { tools: ['SQLite'] } },
  { postId: '502', handle: 'bob', at: '2024-04-10T10:00:00Z', text: 'Tomatoes need full sun', summary: 'Gardening' },
]

describe('search queue under upserts', () => {
  let t: TestServer
  let admin: Client
  const importPosts = async (posts: PostSpec[]) => {
    const fd = new FormData()
    fd.append('file', new Blob([sheafExport(posts)]), 'library.json')
    return admin.request('POST', '/api/import', fd)
  }

  beforeAll(async () => {
    t = await startTestServer()
    admin = (await clientsByRole(t)).admin
  })
  afterAll(async () => t?.close())

  it('imports a Sheaf export with knowledge twice without a search_queue conflict', async () => {
    const first = await importPosts(POSTS)
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const second = await importPosts(POSTS.map((p) => ({ ...p, summary: `${p.summary} (again)` })))
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    const id = bookmarkIdByPostId(t.sheaf.db, '501')!
    expect(knowledgeFor(t.sheaf.db, id)?.summary).toBe('SQLite indexing tips')
  })

  it('updates knowledge of an already queued post through the upsert path', () => {
    const db = t.sheaf.db
    const id = bookmarkIdByPostId(db, '502')!
    sqliteOf(db).prepare('INSERT INTO search_queue(bookmark_id) VALUES (?) ON CONFLICT DO NOTHING').run(id)
    const base = {
      bookmarkId: id, action: 'read_later', sentiment: 'neutral', confidence: 0.5, relatedIds: '[]', ossReport: null,
      entities: '{"tools":["Trowel"]}', kind: null, provider: 'local', contentHash: null, analyzedAt: 1,
    }
    upsertKnowledge(db, { ...base, summary: 'first' })
    upsertKnowledge(db, { ...base, summary: 'second' })
    expect(knowledgeFor(db, id)?.summary).toBe('second')
    const queued = sqliteOf(db).prepare('SELECT count(*) FROM search_queue WHERE bookmark_id = ?').pluck().get(id)
    expect(queued).toBe(1)
  })
})
