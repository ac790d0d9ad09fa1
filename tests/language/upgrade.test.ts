import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { startLanguageUpgrade } from '../../src-main/library/index.ts'
import { closeDatabase, MIGRATIONS_DIR, openDatabase, type Db } from '../../src-main/store/index.ts'
import { countUncheckedLanguage } from '../../src-main/store/queries/language.ts'
import { clientsByRole } from '../support/client.ts'
import { hasSharedFixtures, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { startTestServer } from '../support/server.ts'
import { archivePosts, letterCount } from './archive-posts.ts'
import { describeIf } from '../support/skip.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

// A library made before languages were kept (migrations up to 0008) is upgraded: migration 0009
// normalises the codes X gave, and the posts with none are detected in the background after start.

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sheaf-lang-upgrade-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The real migrations up to and including `lastTag`, as an older release shipped them. */
function migrationsUpTo(lastTag: string): string {
  const copy = join(dir, 'migrations-old')
  cpSync(MIGRATIONS_DIR, copy, { recursive: true })
  const journalFile = join(copy, 'meta/_journal.json')
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] }
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((e) => e.tag === lastTag) + 1)
  writeFileSync(journalFile, JSON.stringify(journal))
  return copy
}

/** Posts written the way the importer wrote them before 0009: X's code as it came, or none. */
function oldLibrary(file: string, rows: { postId: string; text: string; lang: string | null }[]): void {
  const db = openDatabase({ file, migrationsDir: migrationsUpTo('0008_popular_order') })
  const insert = sqliteOf(db).prepare(`INSERT INTO bookmarks (post_id, text, author_handle, author_name, post_created_at, source, lang, raw_json, content_hash)
    VALUES (?, ?, 'someone', 'Someone', ?, 'bookmark', ?, '{}', 'h')`)
  sqliteOf(db).transaction(() => rows.forEach((r, i) => insert.run(r.postId, r.text, 1_700_000_000_000 + i * 60_000, r.lang)))()
  closeDatabase(db)
}

const langOf = (db: Db) => new Map((sqliteOf(db).prepare('SELECT post_id AS postId, lang FROM bookmarks').all() as { postId: string; lang: string | null }[]).map((r) => [r.postId, r.lang]))

describeIf(hasSharedFixtures, NEEDS_FIXTURES)('languages of a library from before 0009', () => {
  it('normalises stored codes at migration and detects the rest in the background after start', async () => {
    const posts = archivePosts()
    const spanish = posts.filter((p) => p.lang === 'es' && letterCount(p.text) >= 40).slice(0, 120)
    const english = posts.filter((p) => p.lang === 'en' && letterCount(p.text) >= 40).slice(0, 40)
    const rows = [
      ...spanish.map((p) => ({ postId: p.id, text: p.text, lang: null })),
      ...english.map((p) => ({ postId: p.id, text: p.text, lang: null })),
      { postId: 'x-und', text: spanish[0].text + ' ', lang: 'und' },
      { postId: 'x-qme', text: 'https://t.co/abc', lang: 'qme' },
      { postId: 'x-in', text: 'Selamat pagi', lang: 'in' },
      { postId: 'x-engb', text: 'Cheers mate', lang: 'en-gb' },
      { postId: 'x-emoji', text: '🔥🔥🔥', lang: null },
    ]
    oldLibrary(join(dir, 'sheaf.db'), rows)

    const t = await startTestServer({ dataDir: dir })
    try {
      const viewer = (await clientsByRole(t)).viewer
      // the library answers while the check runs
      expect((await viewer.get('/api/bookmarks')).status).toBe(200)
      await vi.waitFor(async () => expect((await viewer.get('/api/bookmarks/languages')).body.pending).toBe(0), { timeout: 60_000, interval: 100 })
      const langs = langOf(t.sheaf.db)
      expect(langs.get('x-in')).toBe('id')
      expect(langs.get('x-engb')).toBe('en')
      expect(langs.get('x-qme')).toBeNull()
      expect(langs.get('x-und')).toBe('es')
      expect(langs.get('x-emoji')).toBeNull()
      expect(spanish.filter((p) => langs.get(p.id) === 'es').length).toBeGreaterThanOrEqual(114)
      expect(english.filter((p) => langs.get(p.id) === 'en').length).toBeGreaterThanOrEqual(36)
      expect(countUncheckedLanguage(t.sheaf.db)).toBe(0)

      const counts = (await viewer.get('/api/bookmarks/languages')).body
      expect(counts.languages[0].lang).toBe('es')
      expect(counts.languages.reduce((s: number, l: any) => s + l.count, 0) + counts.none).toBe(rows.length)
      const es = (await viewer.get('/api/bookmarks?lang=es&limit=100')).body
      expect(es.total).toBe(counts.languages.find((l: any) => l.lang === 'es').count)
      expect(es.bookmarks.every((b: any) => b.lang === 'es')).toBe(true)
    } finally {
      await t.close()
    }
  })

  it('is resumable: a stopped check carries on where it stopped, and decided posts are not redone', async () => {
    const spanish = archivePosts().filter((p) => p.lang === 'es' && letterCount(p.text) >= 40).slice(0, 200)
    const file = join(dir, 'sheaf.db')
    oldLibrary(file, spanish.map((p) => ({ postId: p.id, text: p.text, lang: null })))
    const db = openDatabase({ file })
    try {
      expect(countUncheckedLanguage(db)).toBe(200)
      const first = startLanguageUpgrade({ db, batch: 10, pauseMs: 20 })
      await vi.waitFor(() => expect(countUncheckedLanguage(db)).toBeLessThan(200), { timeout: 30_000, interval: 5 })
      first.stop()
      await first.idle()
      const left = countUncheckedLanguage(db)
      expect(left).toBeGreaterThan(0)
      // a post decided meanwhile (say, by a re-import) keeps its language
      const decided = sqliteOf(db).prepare('SELECT post_id FROM bookmarks WHERE lang_checked = 1 LIMIT 1').pluck().get() as string
      sqliteOf(db).prepare("UPDATE bookmarks SET lang = 'pt' WHERE post_id = ?").run(decided)

      const second = startLanguageUpgrade({ db, batch: 50 })
      await second.idle()
      expect(countUncheckedLanguage(db)).toBe(0)
      const langs = langOf(db)
      expect(langs.get(decided)).toBe('pt')
      expect([...langs.values()].filter((l) => l === 'es').length).toBeGreaterThan(185)
    } finally {
      closeDatabase(db)
    }
  })
})
