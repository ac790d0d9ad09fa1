import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createLibrary } from '../../src-main/library/index.ts'
import { closeDatabase, openDatabase } from '../../src-main/store/index.ts'
import { clientsByRole, type Client } from '../support/client.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { allBookmarks, languagesSettled, upload } from '../library/helpers.ts'
import { archivePosts, letterCount } from './archive-posts.ts'
import { describeIf } from '../support/skip.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

// Every imported post gets a language: X's own code normalised to ISO 639-1, or the detector's answer
// when the export has none (src-main/language). Real posts from ../shared/fixtures.

const ARCHIVE = 'exports/archive/alrocar_x/tweets.js'

/** The archive with X's `lang` taken out of every post: an export that never says the language. */
function archiveWithoutLang(dir: string): string {
  const js = readFileSync(sharedFixture(ARCHIVE), 'utf8')
  const at = js.indexOf('[')
  const rows = JSON.parse(js.slice(at)) as { tweet: Record<string, unknown> }[]
  for (const r of rows) delete r.tweet.lang
  const file = join(dir, 'tweets.js')
  writeFileSync(file, js.slice(0, at) + JSON.stringify(rows))
  return file
}

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('languages at import', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  let dir: string
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sheaf-lang-import-'))
    t = await startTestServer()
    c = await clientsByRole(t)
  })
  afterAll(async () => {
    await t?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("stores X's codes as ISO 639-1: und, qme, zxx become null, in becomes id; the list item carries lang", async () => {
    const res = await upload(c.admin, sharedFixture(ARCHIVE))
    expect(res.status).toBe(200)
    const items = await allBookmarks(c.viewer)
    expect(items.length).toBe(1223)
    for (const b of items) expect(b.lang === null || /^[a-z]{2}$/.test(b.lang), String(b.lang)).toBe(true)
    const byX = new Map(archivePosts().map((p) => [p.id, p.lang]))
    const stored = new Map(items.map((b) => [b.postId, b.lang]))
    for (const [id, x] of byX) {
      if (['es', 'en', 'ja', 'pt', 'ca', 'fr', 'de'].includes(x)) expect(stored.get(id), id).toBe(x)
      if (['qme', 'zxx'].includes(x)) expect(stored.get(id), id).toBeNull()
      if (x === 'in') expect(stored.get(id), id).toBe('id')
    }
    // 'und' is X not knowing, not X saying "no language": the detector may still answer, with a code
    const detail = (await c.viewer.get(`/api/bookmarks/${items[0].id}`)).body
    expect(detail.lang).toBe(items[0].lang)
  })

  it("detects the language of posts whose export has no code (the archive's Spanish posts as es)", async () => {
    const t2 = await startTestServer()
    try {
      const admin = (await clientsByRole(t2)).admin
      const res = await upload(admin, archiveWithoutLang(dir))
      expect(res.status).toBe(200)
      const items = await allBookmarks(admin)
      const stored = new Map(items.map((b) => [b.postId, b.lang]))
      const spanish = archivePosts().filter((p) => p.lang === 'es' && letterCount(p.text) >= 40)
      const english = archivePosts().filter((p) => p.lang === 'en' && letterCount(p.text) >= 40)
      expect(spanish.filter((p) => stored.get(p.id) === 'es').length / spanish.length).toBeGreaterThan(0.95)
      expect(english.filter((p) => stored.get(p.id) === 'en').length / english.length).toBeGreaterThan(0.9)
      // media-only and emoji-only posts get no language rather than a guess
      const mediaOnly = archivePosts().filter((p) => p.lang === 'zxx')
      expect(mediaOnly.filter((p) => stored.get(p.id) !== null).length).toBeLessThanOrEqual(1)
    } finally {
      await t2.close()
    }
  })

  it('a file parsed on the parse worker and one parsed in-thread (detected on a language worker) get the same languages at import', async () => {
    const file = archiveWithoutLang(dir)
    const langs: string[] = []
    for (const offThreadMinBytes of [Number.POSITIVE_INFINITY, 0]) {
      const db = openDatabase({ file: join(dir, `lib-${offThreadMinBytes}.db`) })
      const lib = createLibrary({ db, clock: () => 0, offThreadMinBytes, languageUpgrade: false })
      await lib.importFile(file)
      langs.push(JSON.stringify(sqliteOf(db).prepare('SELECT post_id, lang, lang_checked FROM bookmarks ORDER BY post_id').all()))
      expect(sqliteOf(db).prepare('SELECT count(*) FROM bookmarks WHERE lang_checked IS NULL').pluck().get()).toBe(0)
      expect(sqliteOf(db).prepare("SELECT count(*) FROM bookmarks WHERE lang = 'es'").pluck().get()).toBeGreaterThan(600)
      lib.close()
      closeDatabase(db)
    }
    expect(langs[1]).toEqual(langs[0])
  })

  it('formats without a language field (Siftly, a flat fetch.py export) get detected languages', async () => {
    const t3 = await startTestServer()
    try {
      const admin = (await clientsByRole(t3)).admin
      expect((await upload(admin, sharedFixture('exports/derived/siftly_console_bookmarks_newschema.json'))).status).toBe(200)
      await languagesSettled(admin)
      const items = await allBookmarks(admin)
      const english = items.filter((b) => letterCount(b.text) >= 60)
      expect(english.length).toBeGreaterThan(5)
      expect(english.filter((b) => b.lang === 'en').length / english.length).toBeGreaterThan(0.8)
    } finally {
      await t3.close()
    }
  })
})
