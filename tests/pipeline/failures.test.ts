import { afterEach, describe, expect, it } from 'vitest'
import { sheafExport, type PostSpec } from '../search/sheaf-export.ts'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { waitFor } from './helpers.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

const POSTS: PostSpec[] = Array.from({ length: 12 }, (_, i) => ({
  postId: `${900 + i}`, handle: `user${i % 3}`, at: Date.UTC(2024, 0, 1 + i),
  text: i % 2 ? `Rust and SQLite tips number ${i}: indexes and the borrow checker` : `Growing tomatoes in a small garden, note ${i}`,
}))

async function library(t: TestServer): Promise<Client> {
  const admin = await signedIn(t, 'admin', `admin-${Math.random().toString(36).slice(2)}@example.com`)
  await admin.put('/api/settings', { fetchMedia: false, autoRunAfterImport: false })
  const fd = new FormData()
  fd.append('file', new Blob([sheafExport(POSTS)]), 'library.json')
  const res = await admin.request('POST', '/api/import', fd)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return admin
}

const jobStatus = (t: TestServer, id: string) =>
  sqliteOf(t.sheaf.db).prepare('SELECT status, error FROM jobs WHERE id = ?').get(id) as { status: string; error: string | null }

describe('pipeline failures never take the server down', () => {
  const servers: TestServer[] = []
  const open = async () => {
    const t = await startTestServer({ pipelineBatchScale: 0.02 })
    servers.push(t)
    return t
  }
  afterEach(async () => {
    for (const t of servers.splice(0)) await t.close()
  })

  it('marks the job failed with the message when its work throws mid-run, and the next job runs', async () => {
    const t = await open()
    const admin = await library(t)
    // The job's own progress write fails as soon as it reaches semantic_tagging.
    sqliteOf(t.sheaf.db).exec(`CREATE TRIGGER boom BEFORE UPDATE OF stage ON jobs WHEN new.stage = 'semantic_tagging' AND new.status = 'running'
      BEGIN SELECT RAISE(ABORT, 'boom: disk on fire'); END`)
    const started = await admin.post('/api/categorize', {})
    expect(started.body).toMatchObject({ status: 'started', totalBookmarks: 12 })
    await t.sheaf.pipeline.idle()
    expect(jobStatus(t, started.body.jobId)).toEqual({ status: 'failed', error: 'boom: disk on fire' })
    const view = await admin.get('/api/categorize')
    expect(view.status).toBe(200)
    expect(view.body.job).toMatchObject({ jobId: started.body.jobId, status: 'failed', error: 'boom: disk on fire' })

    sqliteOf(t.sheaf.db).exec('DROP TRIGGER boom')
    const again = await admin.post('/api/categorize', {})
    expect(again.body.status).toBe('started')
    await t.sheaf.pipeline.idle()
    expect(jobStatus(t, again.body.jobId).status).toBe('completed')
  })

  it('stays up when even recording the failure fails', async () => {
    const t = await open()
    const admin = await library(t)
    const started = await admin.post('/api/categorize', {})
    expect(started.body.status).toBe('started')
    sqliteOf(t.sheaf.db).exec(`CREATE TRIGGER jam BEFORE UPDATE ON jobs BEGIN SELECT RAISE(ABORT, 'jammed'); END`)
    await t.sheaf.pipeline.idle()
    const view = await admin.get('/api/categorize')
    expect(view.status).toBe(200)
    expect(view.body.job.jobId).toBe(started.body.jobId)
    expect((await admin.get('/api/bookmarks')).status).toBe(200)
  })

  it('waits for a transaction held open on the shared connection instead of writing into it', async () => {
    const t = await open()
    const admin = await library(t)
    const client = sqliteOf(t.sheaf.db)
    client.exec('BEGIN IMMEDIATE')
    let answered = false
    const pending = admin.post('/api/categorize', {}).then((r) => {
      answered = true
      return r
    })
    await new Promise((r) => setTimeout(r, 300))
    expect(answered).toBe(false)
    client.exec('ROLLBACK')
    const started = await pending
    expect(started.body).toMatchObject({ status: 'started', totalBookmarks: 12 })
    await t.sheaf.pipeline.idle()
    expect(jobStatus(t, started.body.jobId).status).toBe('completed')
    await waitFor(() => (client.prepare('SELECT count(*) FROM knowledge').pluck().get() as number) === 12)
  })
})
