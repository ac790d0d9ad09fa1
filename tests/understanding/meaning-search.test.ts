import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { sheafExport } from '../search/sheaf-export.ts'
import { importFile, readStream } from '../pipeline/helpers.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

/** Posts that share no word with the questions below, and look-alikes that share words but not meaning. */
const POSTS = [
  { postId: '9001', text: 'Our toddler finally slept through the night, first time in months', handle: 'dad' },
  { postId: '9002', text: 'The central bank raised interest rates again to fight inflation', handle: 'econ' },
  { postId: '9003', text: 'Scored a hat-trick in the derby, the fans went wild', handle: 'football' },
  { postId: '9004', text: 'Night mode in the new editor build: toggle it from the command palette', handle: 'dev' },
  { postId: '9005', text: 'Fight scenes in this film are choreographed beautifully', handle: 'film' },
  { postId: '9006', text: 'Simple sourdough: flour, water, salt and a lot of patience', handle: 'baker' },
]

describe('search by meaning with the sentence encoder', () => {
  let t: TestServer
  let member: Client

  beforeAll(async () => {
    t = await startTestServer()
    const admin = await signedIn(t, 'admin')
    member = await signedIn(t, 'member')
    expect((await admin.put('/api/settings', { fetchMedia: false, autoRunAfterImport: false })).status).toBe(200)
    const file = join(mkdtempSync(join(tmpdir(), 'sheaf-meaning-')), 'posts.json')
    writeFileSync(file, sheafExport(POSTS.map((p, i) => ({ ...p, at: Date.UTC(2025, 0, 1 + i) }))))
    await importFile(admin, file)
    expect((await admin.post('/api/categorize', {})).status).toBe(200)
    await readStream(admin)
  }, 120_000)
  afterAll(async () => t?.close())

  it('stores one 512-d encoder vector per analysed post', () => {
    const rows = sqliteOf(t.sheaf.db).prepare("SELECT count(*) AS n, min(dim) AS dim FROM embeddings WHERE model = 'use-lite-512'").get() as { n: number; dim: number }
    expect(rows).toEqual({ n: POSTS.length, dim: 512 })
  })

  it.each([
    ['baby sleep', '9001'],
    ['monetary policy and the economy', '9002'],
    ['soccer goals', '9003'],
    ['baking bread at home', '9006'],
  ])('"%s" finds the post it means first, with the encoder named as the model', async (q, postId) => {
    const res = await member.get(`/api/search/ai?q=${encodeURIComponent(q)}&limit=3`)
    expect(res.status).toBe(200)
    expect(res.body.semanticModel).toBe('use-lite-512')
    expect(res.body.results[0]?.bookmark.postId).toBe(postId)
  })
})
