import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { sheafExport } from '../search/sheaf-export.ts'
import { importFile, readStream } from '../pipeline/helpers.ts'

/**
 * The sentence encoder cannot read a misspelt word, nor emoji or scripts it was not trained on: a
 * typo'd query's vector lands beside those posts. The post the query's words find must still come first.
 */
const POSTS = [
  { postId: '9101', text: 'Why is the sky blue? Rayleigh scattering: shorter wavelengths bounce around the atmosphere more than longer ones.', handle: 'physics' },
  { postId: '9102', text: 'My sourdough finally has an open crumb: 78% hydration, long cold retard in the fridge.', handle: 'baker' },
  { postId: '9103', text: 'Zone 2 training builds your aerobic base: keep your heart rate low enough to hold a conversation.', handle: 'runner' },
  { postId: '9104', text: 'Drink more water on hot days, hydration matters for your skin too.', handle: 'health' },
  { postId: '9201', text: '💓', handle: 'fan' },
  { postId: '9202', text: '👀🔥', handle: 'fan2' },
  { postId: '9203', text: 'もはや彼らへの信用はない。解せないな。', handle: 'jp' },
  { postId: '9204', text: 'HODL', handle: 'coin' },
  { postId: '9205', text: 'Lunes y martes', handle: 'es' },
]
const UNREADABLE = new Set(['9201', '9202', '9203'])

describe('misspelt searches with the sentence encoder', () => {
  let t: TestServer
  let member: Client

  beforeAll(async () => {
    t = await startTestServer()
    const admin = await signedIn(t, 'admin')
    member = await signedIn(t, 'member')
    expect((await admin.put('/api/settings', { fetchMedia: false, autoRunAfterImport: false })).status).toBe(200)
    const file = join(mkdtempSync(join(tmpdir(), 'sheaf-misspelt-')), 'posts.json')
    writeFileSync(file, sheafExport(POSTS.map((p, i) => ({ ...p, at: Date.UTC(2025, 0, 1 + i) }))))
    await importFile(admin, file)
    expect((await admin.post('/api/categorize', {})).status).toBe(200)
    await readStream(admin)
  }, 120_000)
  afterAll(async () => t?.close())

  const search = async (q: string) => {
    const res = await member.get(`/api/search/ai?q=${encodeURIComponent(q)}&limit=10`)
    expect(res.status).toBe(200)
    expect(res.body.semanticModel).toBe('use-lite-512')
    return res.body as { results: Array<{ bookmark: { postId: string }; reason: string; relevance: number }>; understood: { corrections: Array<{ from: string; to: string }> } }
  }

  it.each([
    ['raleigh scatering', '9101'],
    ['aerobik base', '9103'],
  ])('"%s" finds the post its words match first', async (q, postId) => {
    const body = await search(q)
    expect(body.results[0]?.bookmark.postId).toBe(postId)
  })

  it('"sourdoh hydration" puts the posts that say "hydration" above every post found by meaning alone', async () => {
    const body = await search('sourdoh hydration')
    expect(body.results.slice(0, 2).map((r) => r.bookmark.postId).sort()).toEqual(['9102', '9104'])
  })

  it('reads the corrected spelling and says so', async () => {
    const body = await search('raleigh scatering')
    expect(body.understood.corrections).toEqual([{ from: 'scatering', to: 'scattering' }])
  })

  it.each(['raleigh scatering', 'base', 'sky colour', 'sourdoh'])('never calls a post the encoder cannot read "similar in meaning" ("%s")', async (q) => {
    const body = await search(q)
    expect(body.results.filter((r) => UNREADABLE.has(r.bookmark.postId))).toEqual([])
  })
})
