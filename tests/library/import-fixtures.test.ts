import { zipSync } from 'fflate'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { clientsByRole, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, upload } from './helpers.ts'
import {
  archiveNotes, archiveRows, comparable, flatRows, graphqlTweets, siftlyRows, twillotRows, tweRows, type Expected,
} from './raw-readers.ts'
import { describeIf } from '../support/skip.ts'

const EXPORTS = sharedFixture('exports')
const present = hasSharedFixtures && existsSync(EXPORTS)
if (!present) console.warn('skipping fixture imports: ../shared/fixtures/exports is absent')

const filesUnder = (d: string): string[] =>
  readdirSync(d).sort().flatMap((f) => (statSync(join(d, f)).isDirectory() ? filesUnder(join(d, f)) : [join(d, f)]))

/** What each file is expected to yield; the per-post values come from the raw files (raw-readers.ts). */
const EXPECT: Record<string, { format: string; imported: number; rows?: (f: string) => Expected[] | Map<string, Expected>; textIsFull?: boolean }> = {
  'archive/alrocar_x/tweets.js': { format: 'x-archive', imported: 1223, rows: archiveRows },
  'archive/alrocar_x/note-tweet.js': { format: 'x-archive', imported: 0 },
  'derived/graphql_bookmarks_envelope_newschema.json': { format: 'x-graphql', imported: 76, rows: graphqlTweets, textIsFull: true },
  'derived/graphql_bookmarks_envelope_oldschema.json': { format: 'x-graphql', imported: 72, rows: graphqlTweets, textIsFull: true },
  'derived/siftly_console_bookmarks_newschema.json': { format: 'siftly', imported: 76, rows: siftlyRows },
  'derived/siftly_console_bookmarks_oldschema.json': { format: 'siftly', imported: 72, rows: siftlyRows },
  'derived/twillot_bookmarks.json': { format: 'twillot', imported: 72, rows: twillotRows, textIsFull: true },
  'derived/twitter_web_exporter_bookmarks.csv': { format: 'twitter-web-exporter-csv', imported: 76, rows: () => tweRows(sharedFixture('exports/derived/twitter_web_exporter_bookmarks.json')), textIsFull: true },
  'derived/twitter_web_exporter_bookmarks.json': { format: 'twitter-web-exporter-json', imported: 76, rows: tweRows, textIsFull: true },
  'flat/x_bookmarks_fetchpy_excerpt.json': { format: 'flat-fetch', imported: 13, rows: flatRows, textIsFull: true },
  'graphql/twscrape__issue_56.json': { format: 'x-graphql', imported: 11, rows: graphqlTweets, textIsFull: true },
  'graphql/twscrape_manual_tweet_with_video_1.json': { format: 'x-graphql', imported: 11, rows: graphqlTweets, textIsFull: true },
  'graphql/twscrape_raw_search.json': { format: 'x-graphql', imported: 20, rows: graphqlTweets, textIsFull: true },
  'graphql/twscrape_raw_tweet_details.json': { format: 'x-graphql', imported: 37, rows: graphqlTweets, textIsFull: true },
  'graphql/twscrape_raw_user_media.json': { format: 'x-graphql', imported: 37, rows: graphqlTweets, textIsFull: true },
  'graphql/uakihir0_bookmark_tweets.json': { format: 'x-graphql', imported: 1, rows: graphqlTweets, textIsFull: true },
  'graphql/uakihir0_searchtimeline.json': { format: 'x-graphql', imported: 22, rows: graphqlTweets, textIsFull: true },
}

function checkAgainstRaw(list: any[], rows: Expected[] | Map<string, Expected>, textIsFull: boolean): number {
  const byId = rows instanceof Map ? rows : new Map(rows.map((r) => [r.postId, r]))
  let checked = 0
  for (const b of list) {
    const raw = byId.get(b.postId)
    expect(raw, `post ${b.postId} (${b.text.slice(0, 40)}) is in the file`).toBeDefined()
    if (!raw) continue
    // Exporters disagree on whose post a repost is (the reposter's or the original author's): dates and ids only.
    if (raw.text?.startsWith('RT @')) {
      checked++
      continue
    }
    if (raw.authorHandle && raw.authorHandle !== 'unknown') expect(b.authorHandle.toLowerCase()).toBe(raw.authorHandle.toLowerCase())
    if (raw.authorName && raw.authorName !== 'Unknown') expect(b.authorName).toBe(raw.authorName)
    if (raw.createdAt !== undefined) expect(Date.parse(b.postCreatedAt), `date of ${b.postId}`).toBe(raw.createdAt)
    if (raw.mediaCount !== undefined && raw.mediaCount > 0) expect(b.media.length, `media of ${b.postId}`).toBeGreaterThan(0)
    if (raw.text !== undefined && textIsFull && !/^RT @/.test(raw.text)) expect(comparable(b.text), `text of ${b.postId}`).toBe(comparable(raw.text))
    checked++
  }
  return checked
}

describeIf(present, NEEDS_FIXTURES)('importing every real export file', () => {
  let t: TestServer
  let admin: Client
  beforeAll(async () => {
    t = await startTestServer()
    admin = (await clientsByRole(t)).admin
  })
  afterAll(async () => t?.close())

  const files = present ? filesUnder(EXPORTS).map((f) => relative(EXPORTS, f)) : []
  for (const rel of files) {
    it(`imports ${rel} with the file's authors, texts, dates and media`, async () => {
      const expected = EXPECT[rel]
      const before = (await admin.get('/api/stats')).body.totalBookmarks
      const res = await upload(admin, join(EXPORTS, rel))
      if (!expected) {
        // A file that is not an export on its own (the archive's manifest.js): refused, naming the formats.
        expect(res.status).toBe(400)
        expect(res.body.code).toBe('VALIDATION_ERROR')
        return
      }
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.format).toBe(expected.format)
      expect(res.body.errors).toBe(0)
      expect(res.body.imported + res.body.duplicates + res.body.updated).toBe(expected.imported)
      const after = (await admin.get('/api/stats')).body.totalBookmarks
      expect(after - before).toBe(res.body.imported)
      if (!expected.rows || expected.imported === 0) return
      const rows = expected.rows(join(EXPORTS, rel))
      const ids = new Set((rows instanceof Map ? [...rows.keys()] : rows.map((r) => r.postId)))
      const mine = (await allBookmarks(admin)).filter((b) => ids.has(b.postId))
      expect(mine.length).toBeGreaterThanOrEqual(expected.imported)
      // Posts seen in earlier files may have been merged with richer data; check this file's own posts fully on a fresh server.
      expect(checkAgainstRaw(mine.slice(0, 2000), rows, false)).toBeGreaterThan(0)
    })
  }

  it('keeps full texts, authors, dates and media exactly (fresh library per format)', async () => {
    for (const [rel, e] of Object.entries(EXPECT)) {
      if (!e.rows || e.imported === 0) continue
      const fresh = await startTestServer()
      try {
        const { admin: a } = await clientsByRole(fresh)
        expect((await upload(a, join(EXPORTS, rel))).status).toBe(200)
        const list = await allBookmarks(a)
        expect(list.length, rel).toBe(e.imported)
        expect(checkAgainstRaw(list, e.rows(join(EXPORTS, rel)), e.textIsFull ?? false), rel).toBe(e.imported)
      } finally {
        await fresh.close()
      }
    }
  }, 120_000)

  it('reads specific real posts exactly', async () => {
    const fresh = await startTestServer()
    try {
      const { admin: a } = await clientsByRole(fresh)
      await upload(a, sharedFixture('exports/graphql/twscrape_raw_search.json'))
      const list = await allBookmarks(a)
      const p = list.find((b) => b.postId === '2074976613713031490')
      expect(p.authorHandle).toBe('piloly')
      expect(p.authorName).toBe('Roland Pircher')
      expect(p.postCreatedAt).toBe('2026-07-08T21:59:10.000Z')
      // A long "note" post: the whole text, not the 280-character preview.
      expect(p.text.endsWith('Iceland (~60% of Tesla sales in Europe)')).toBe(true)
      expect(p.media.map((m: any) => m.type)).toEqual(['photo', 'photo', 'photo', 'photo'])
      expect(p.media[0].url).toContain('pbs.twimg.com/media/HMvMNUDXcAA3HY3')
      expect(p.engagement).toMatchObject({ likes: 312, reposts: 21, replies: 11, quotes: 9, bookmarks: 7 })
      const detail = (await a.get(`/api/bookmarks/${p.id}`)).body
      expect(JSON.parse(detail.rawJson)).toBeTruthy()
      expect(detail.knowledge).toBeNull()
    } finally {
      await fresh.close()
    }
  })

  it('tweets.js without its manifest: the handle some posts name (their media links) is every post\'s', async () => {
    const fresh = await startTestServer()
    try {
      const { admin: a } = await clientsByRole(fresh)
      const res = await upload(a, sharedFixture('exports/archive/alrocar_x/tweets.js'))
      expect(res.body).toMatchObject({ format: 'x-archive', imported: 1223 })
      const list = await allBookmarks(a)
      expect(list.filter((b) => b.authorHandle !== 'alrocar')).toEqual([])
      // a post with no media of its own, which alone could not say whose it is
      expect(list.find((b) => b.postId === '1760611342728208575')?.authorHandle).toBe('alrocar')
      expect((await a.get('/api/bookmarks?author=unknown')).body.total).toBe(0)
    } finally {
      await fresh.close()
    }
  })

  it('imports the X archive as a zip with the full text of long posts', async () => {
    const dir = sharedFixture('exports/archive/alrocar_x')
    const zip = zipSync({
      'data/manifest.js': readFileSync(join(dir, 'manifest.js')),
      'data/tweets.js': readFileSync(join(dir, 'tweets.js')),
      'data/note-tweet.js': readFileSync(join(dir, 'note-tweet.js')),
    })
    const fresh = await startTestServer()
    try {
      const { admin: a } = await clientsByRole(fresh)
      const res = await upload(a, { name: 'twitter-archive.zip', content: zip })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.format).toBe('x-archive-zip')
      expect(res.body.imported).toBe(1223)
      const list = await allBookmarks(a)
      expect(list.every((b) => b.authorHandle === 'alrocar')).toBe(true)
      const notes = archiveNotes(join(dir, 'note-tweet.js'))
      // Long posts are matched to their note only by creation time (several can share a second).
      const texts = new Set(list.map((b) => comparable(b.text)))
      const full = notes.filter((n) => texts.has(comparable(n.text)))
      expect(full.length).toBeGreaterThanOrEqual(notes.length - 5)
    } finally {
      await fresh.close()
    }
  }, 60_000)
})
