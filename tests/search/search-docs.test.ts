import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MIGRATIONS_DIR, searchDocuments, searchIndexQueued, searchReindexRows, type Db } from '../../src-main/store/index.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { searchDb } from './search-db.ts'

const cleanups: Array<() => void> = []
afterEach(() => { for (const c of cleanups.splice(0)) c() })

const kept = (db: Db, id: number) => sqliteOf(db).prepare('SELECT text, tags, summary FROM search_docs WHERE id = ?').get(id) as { text: string; tags: string | null; summary: string | null } | undefined
const tag = (db: Db, id: number, name: string) => {
  const sql = sqliteOf(db)
  sql.prepare('INSERT INTO tags(name) VALUES (?) ON CONFLICT DO NOTHING').run(name)
  sql.prepare('INSERT INTO bookmark_tags(bookmark_id, tag_id) SELECT ?, id FROM tags WHERE name = ?').run(id, name)
}
const docOf = (db: Db, id: number) => searchDocuments(db, [id])[0]

describe("search's documents (search_docs)", () => {
  it('are written with the word index, and read from the live tables while a post waits for it', () => {
    const lib = searchDb()
    cleanups.push(lib.close)
    const a = lib.add('Sourdough starter notes')
    const b = lib.add('Tuning SQLite indexes')
    expect(kept(lib.db, a)).toBeUndefined()
    // Not indexed yet: the live tables answer.
    expect(docOf(lib.db, a).text).toBe('Sourdough starter notes')

    while (searchIndexQueued(lib.db, 64) > 0);
    expect(kept(lib.db, a)?.text).toBe('Sourdough starter notes')
    expect(searchDocuments(lib.db, [a, b]).map((d) => d.id).sort()).toEqual([a, b].sort())

    // A tag added queues the post: the explanation reads the tag at once, the kept row after indexing.
    tag(lib.db, a, 'baking')
    tag(lib.db, a, 'bread')
    expect(kept(lib.db, a)?.tags).toBeNull()
    const live = docOf(lib.db, a)
    expect(live.tags?.split('|').sort()).toEqual(['baking', 'bread'])
    while (searchIndexQueued(lib.db, 64) > 0);
    expect(kept(lib.db, a)?.tags?.split('|').sort()).toEqual(['baking', 'bread'])
    expect(docOf(lib.db, a)).toEqual(live)

    sqliteOf(lib.db).prepare("INSERT INTO knowledge(bookmark_id, summary, action, sentiment, confidence, analyzed_at) VALUES (?, ?, 'read', 'neutral', 0.9, 0)").run(b, 'How to pick a covering index')
    searchReindexRows(lib.db, [b])
    expect(kept(lib.db, b)?.summary).toBe('How to pick a covering index')

    sqliteOf(lib.db).prepare('DELETE FROM bookmarks WHERE id = ?').run(a)
    expect(kept(lib.db, a)).toBeUndefined()
    expect(searchDocuments(lib.db, [a, b]).map((d) => d.id)).toEqual([b])
  })

  it('are filled for every post when a library from before them is migrated', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-search-docs-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const before = join(dir, 'migrations-before')
    cpSync(MIGRATIONS_DIR, before, { recursive: true })
    const journalFile = join(before, 'meta/_journal.json')
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> }
    journal.entries = journal.entries.filter((e) => e.tag < '0017_search_docs')
    writeFileSync(journalFile, JSON.stringify(journal))

    const old = searchDb({ dir, migrationsDir: before })
    const id = old.add('A post saved before the upgrade')
    tag(old.db, id, 'kept')
    expect(sqliteOf(old.db).prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'search_docs'").pluck().get()).toBe(0)
    old.close()

    const lib = searchDb({ dir })
    cleanups.push(lib.close)
    expect(kept(lib.db, id)).toEqual({ text: 'A post saved before the upgrade', tags: 'kept', summary: null })
  })
})
