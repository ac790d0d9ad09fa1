import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { iteratePosts, writeGraphqlBookmarks } from '../../bench/generate-library.ts'
import { AppError } from '../../src-shared/errors.ts'
import { createLibrary } from '../../src-main/library/index.ts'
import { closeDatabase, openDatabase, type Db } from '../../src-main/store/index.ts'
import { sheafExport } from '../search/sheaf-export.ts'
import { hasSharedFixtures, sharedFixture, NEEDS_FIXTURES } from '../support/fixtures.ts'
import { itIf } from '../support/skip.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

// Large imports are parsed on a worker thread (src-main/library/import-source.ts). Each case runs the
// same input through both paths, pinned by offThreadMinBytes, and expects the same answer and the
// same rows: the worker only moves parsing, it never changes what an import does.

const NOW = Date.UTC(2026, 10, 1)
const HERE = Number.POSITIVE_INFINITY
const WORKER = 0

function library(offThreadMinBytes: number) {
  const db = openDatabase({ file: ':memory:' })
  const changed: number[][] = []
  const lib = createLibrary({ db, clock: () => NOW, offThreadMinBytes, onImported: (ids) => { changed.push(ids) } })
  return { db, lib, changed }
}

const all = (db: Db, sql: string) => sqliteOf(db).prepare(sql).all()
const contents = (db: Db) => ({
  bookmarks: all(db, 'SELECT * FROM bookmarks ORDER BY id'),
  media: all(db, 'SELECT * FROM media ORDER BY id'),
  categories: all(db, 'SELECT bookmark_id, category_id, assigned_by, confidence FROM bookmark_categories ORDER BY 1, 2'),
  tags: all(db, 'SELECT bt.bookmark_id, t.name FROM bookmark_tags bt JOIN tags t ON t.id = bt.tag_id ORDER BY 1, 2'),
  knowledge: all(db, 'SELECT bookmark_id, summary, entities FROM knowledge ORDER BY 1'),
  ftsQueue: all(db, 'SELECT bookmark_id FROM search_fts_queue ORDER BY 1'),
  vectorQueue: all(db, 'SELECT bookmark_id FROM search_queue ORDER BY 1'),
  history: all(db, 'SELECT file_name, format, bytes, imported, duplicates, updated, errors, created_at FROM import_history ORDER BY id'),
})

async function* bytesOf(buf: Uint8Array, piece = 64 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < buf.length; at += piece) yield buf.subarray(at, at + piece)
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p
  } catch (e) {
    return e
  }
  throw new Error('expected the import to fail')
}

describe('import parsed on a worker thread', () => {
  let dir: string
  let file: string
  let bytes: Uint8Array
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sheaf-import-worker-'))
    file = join(dir, 'bookmarks.json')
    await writeGraphqlBookmarks(file, iteratePosts(3000, 7)) // ~5 MB: past the default threshold too
    bytes = readFileSync(file)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('writes exactly what parsing in-thread writes, and queues every new post for search', async () => {
    const results = []
    const dbs = []
    for (const mode of [HERE, WORKER]) {
      const { db, lib, changed } = library(mode)
      results.push({ result: await lib.importFile(file), changed })
      dbs.push(contents(db))
      closeDatabase(db)
    }
    expect(results[0].result).toMatchObject({ imported: 3000, errors: 0, format: 'x-graphql' })
    expect(results[1]).toEqual(results[0])
    expect(dbs[1]).toEqual(dbs[0])
    expect(dbs[1].ftsQueue).toHaveLength(3000)
    expect(dbs[1].vectorQueue).toHaveLength(3000)
  })

  it('a large upload (past the default threshold) imports, and a re-import is all duplicates', async () => {
    const db = openDatabase({ file: ':memory:' })
    const lib = createLibrary({ db, clock: () => NOW })
    expect(await lib.importStream({ input: bytesOf(bytes), fileName: 'b.json', userId: null })).toMatchObject({ imported: 3000 })
    expect(await lib.importStream({ input: bytesOf(bytes), fileName: 'b.json', userId: null }))
      .toMatchObject({ imported: 0, duplicates: 3000, updated: 0, errors: 0 })
    closeDatabase(db)
  })

  it('a file cut off half-way fails with the same error and leaves the library as it was', async () => {
    const cut = bytes.subarray(0, Math.floor(bytes.length * 0.6))
    const seen = []
    for (const mode of [HERE, WORKER]) {
      const { db, lib } = library(mode)
      const e = await failure(lib.importStream({ input: bytesOf(cut), fileName: 'cut.json', userId: null }))
      expect(e).toBeInstanceOf(AppError)
      seen.push({ code: (e as AppError).code, message: (e as AppError).message, details: (e as AppError).details })
      expect(contents(db)).toMatchObject({ bookmarks: [], media: [], history: [], ftsQueue: [] })
      closeDatabase(db)
    }
    expect(seen[0].details).toMatchObject({ truncated: true })
    expect(seen[1]).toEqual(seen[0])
  })

  it('an upload that breaks off rethrows the upload error and rolls back', async () => {
    const broken = new AppError('VALIDATION_ERROR', 'The upload broke off: aborted', { field: 'file' })
    async function* upload() {
      yield* bytesOf(bytes.subarray(0, 3_000_000))
      throw broken
    }
    const { db, lib } = library(WORKER)
    // The same error, naming the file.
    expect(await failure(lib.importStream({ input: upload(), fileName: 'u.json', userId: null })))
      .toMatchObject({ code: 'VALIDATION_ERROR', message: 'u.json: the upload broke off: aborted', details: { field: 'file' } })
    expect(contents(db)).toMatchObject({ bookmarks: [], history: [] })
    // the importer is free again
    expect(await lib.importStream({ input: bytesOf(bytes), fileName: 'b.json', userId: null })).toMatchObject({ imported: 3000 })
    closeDatabase(db)
  })

  it('invalid JSON and unknown formats fail with the same errors as in-thread', async () => {
    const text = new TextDecoder().decode(bytes)
    const at = text.indexOf('"full_text":', 3_000_000)
    const bad = new TextEncoder().encode(text.slice(0, at) + '"full_text"=' + text.slice(at + 12))
    const notAnExport = new TextEncoder().encode('hello, this is not an export\n'.repeat(5000))
    for (const input of [bad, notAnExport]) {
      const seen = []
      for (const mode of [HERE, WORKER]) {
        const { db, lib } = library(mode)
        const e = (await failure(lib.importStream({ input: bytesOf(input), fileName: 'x.json', userId: null }))) as AppError
        seen.push({ name: e.name, code: e.code, message: e.message, details: e.details })
        expect(contents(db).bookmarks).toEqual([])
        closeDatabase(db)
      }
      expect(seen[0].code).toBe('VALIDATION_ERROR')
      expect(seen[0].message).toMatch(input === bad ? /not valid JSON.*line 1, column \d+/ : /not an export: neither JSON nor an export's CSV/)
      expect(seen[1]).toEqual(seen[0])
    }
  })

  it("a Sheaf export's categories, tags, knowledge and media text come back through the worker", async () => {
    const posts = Array.from({ length: 1200 }, (_, i) => ({
      postId: String(9_000_000 + i), text: `post ${i} about gardening and ${'soil '.repeat(i % 7)}`, handle: `h${i % 13}`,
      at: Date.UTC(2024, 0, 1) + i * 3_600_000, urls: [`https://example.com/${i}`],
      media: i % 3 ? [] : [{ type: 'photo' as const, ocrText: `ocr ${i}`, altText: `alt ${i}` }],
      categories: i % 2 ? ['garden'] : [], tags: i % 5 ? [] : ['soil', 'spring'], summary: i % 4 ? undefined : `summary ${i}`,
    }))
    const exported = new TextEncoder().encode(sheafExport(posts, [{ name: 'Garden', slug: 'garden' }]))
    const dbs = []
    for (const mode of [HERE, WORKER]) {
      const { db, lib } = library(mode)
      expect(await lib.importStream({ input: bytesOf(exported), fileName: 's.json', userId: null }))
        .toMatchObject({ imported: 1200, errors: 0, format: 'sheaf' })
      dbs.push(contents(db))
      closeDatabase(db)
    }
    expect(dbs[1].categories.length).toBeGreaterThan(0)
    expect(dbs[1].tags.length).toBeGreaterThan(0)
    expect(dbs[1].knowledge.length).toBeGreaterThan(0)
    expect(dbs[1]).toEqual(dbs[0])
  })

  itIf(hasSharedFixtures, NEEDS_FIXTURES)('merges richer posts into stored ones the same way (updated, duplicates)', async () => {
    const poor = readFileSync(sharedFixture('exports', 'derived/siftly_console_bookmarks_newschema.json'))
    const rich = readFileSync(sharedFixture('exports', 'derived/graphql_bookmarks_envelope_newschema.json'))
    const runs = []
    for (const mode of [HERE, WORKER]) {
      const { db, lib } = library(mode)
      const out = []
      for (const input of [poor, rich, rich]) out.push(await lib.importStream({ input: bytesOf(input, 4096), fileName: 'f.json', userId: null }))
      runs.push({ out, rows: contents(db) })
      closeDatabase(db)
    }
    expect(runs[0].out[1].updated).toBeGreaterThan(50)
    expect(runs[0].out[2]).toMatchObject({ imported: 0, updated: 0 })
    expect(runs[1]).toEqual(runs[0])
  })
})
