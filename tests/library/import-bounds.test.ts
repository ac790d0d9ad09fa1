import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { deflateRepeated, MiB, zipOf } from '../importers/zip-bombs.ts'
import { upload } from './helpers.ts'

// Issue 14, findings 2 and 5: zip bombs and oversized posts are refused with 400 VALIDATION_ERROR
// (naming the entry or the record), the library stays as it was, and no temporary file is left.

const post = (i: number, text: string) => ({ id_str: String(1855222380982907000n + BigInt(i)), full_text: text, created_at: 'Sat Nov 09 12:14:18 +0000 2024' })

describe('import bounds', () => {
  let t: TestServer
  let admin: Client
  beforeAll(async () => {
    t = await startTestServer()
    admin = await signedIn(t, 'admin')
    expect((await upload(admin, { name: 'seed.json', content: JSON.stringify([post(1, 'already here')]) })).body.imported).toBe(1)
  })
  afterAll(async () => t?.close())

  const total = async () => (await admin.get('/api/bookmarks?limit=1')).body.total
  const spoolIsEmpty = () => expect(readdirSync(join(t.dataDir, 'tmp'))).toEqual([])

  it('eight 400 MiB parts in a 3 MB zip: 400 naming the first part, nothing imported', async () => {
    const entries = Array.from({ length: 8 }, (_, i) => ({
      name: `data/tweets-part${i}.js`, data: deflateRepeated(`window.YTD.tweets.part${i} = [`, 0x20, 400 * MiB, ']'), size: 400 * MiB,
    }))
    // one deflate stream reused: the zip is ~8 x 2.6 MB
    const res = await upload(admin, { name: 'bomb.zip', content: zipOf(entries) })
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('VALIDATION_ERROR')
    expect(res.body.error).toMatch(/data\/tweets-part0\.js inflates more than 100 times/)
    expect(await total()).toBe(1)
    spoolIsEmpty()
  }, 60_000)

  it('a tweets.js that inflates to 600 MiB (declared): 400 naming it, before inflating', async () => {
    const zip = zipOf([{ name: 'data/tweets.js', data: deflateRepeated('window.YTD.tweets.part0 = [', 0x20, 600 * MiB, ']'), size: 600 * MiB }])
    const res = await upload(admin, { name: 'big.zip', content: zip })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { entry: 'data/tweets.js' } })
    expect(res.body.error).toMatch(/600 MB uncompressed/)
    expect(await total()).toBe(1)
    spoolIsEmpty()
  }, 60_000)

  it('a tweets.js that inflates to 2 GiB while claiming 1 KB: 400 naming it, stopped while inflating', async () => {
    const zip = zipOf([{ name: 'data/tweets.js', data: deflateRepeated('window.YTD.tweets.part0 = [', 0x20, 2048 * MiB, ']'), size: 1024 }])
    const res = await upload(admin, { name: 'huge.zip', content: zip })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { entry: 'data/tweets.js' } })
    expect(await total()).toBe(1)
    spoolIsEmpty()
  }, 60_000)

  it('a post longer than X allows is that record\'s error; a 25,000-character one imports', async () => {
    const res = await upload(admin, { name: 'long.json', content: JSON.stringify([post(2, 'é'.repeat(25_000)), post(3, 'x'.repeat(40_000)), post(4, 'fine')]) })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ imported: 2, errors: 1 })
    expect(res.body.errorDetails[0]).toMatchObject({ postId: '1855222380982907003' })
    expect(res.body.errorDetails[0].reason).toMatch(/40,000 characters long; X allows 25,000/)
  })

  it('a single post of 50 MiB is skipped as that record\'s error, without holding it', async () => {
    const res = await upload(admin, { name: 'huge-post.json', content: JSON.stringify([post(5, 'y'.repeat(50 * MiB)), post(6, 'after the huge one')]) })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ imported: 1, errors: 1 })
    expect(res.body.errorDetails[0].reason).toMatch(/50 MB long, far more than any post/)
    const list = (await admin.get('/api/bookmarks?q=huge')).body.bookmarks
    expect(list.map((b: any) => b.postId)).toEqual(['1855222380982907006'])
  }, 60_000)
})
