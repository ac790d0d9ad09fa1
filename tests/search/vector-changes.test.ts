import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOCAL_EMBEDDING_MODEL } from '../../src-main/ai/index.ts'
import { createEncoderEmbedder } from '../../src-main/search/embedder.ts'
import { createSearch } from '../../src-main/search/index.ts'
import { createLocalEmbedder } from '../../src-main/search/index.ts'
import { createSemanticIndex, inputHash } from '../../src-main/search/semantic.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { MIGRATIONS_DIR } from '../../src-main/store/index.ts'
import { writeEmbedding } from '../../src-main/store/index.ts'
import { deleteBookmarks } from '../../src-main/store/queries/bookmarks.ts'
import { searchDb } from './search-db.ts'

const TEXTS = ['Tuning SQLite indexes for faster reads', 'Espresso grind size and brew pressure', 'Kerning and line height in typography',
  'Training plan for a first marathon', 'Our toddler finally slept through the night, first time in months']
const [SQLITE, ESPRESSO, , , TODDLER] = TEXTS

/** Polls until `done()` (vectors load between turns of the event loop), for up to 20 s. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000
  while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
}

/** A library of the five texts, each with the sentence encoder's vector stored as the pipeline stores it. */
async function library() {
  const lib = searchDb()
  const encoder = createEncoderEmbedder()
  const vectors = await encoder.embed(TEXTS)
  const store = (id: number, i: number) =>
    writeEmbedding(lib.db, { bookmarkId: id, model: LOCAL_EMBEDDING_MODEL, vector: vectors[i], contentHash: inputHash(TEXTS[i]) })
  const ids = TEXTS.map((t, i) => {
    const id = lib.add(t)
    store(id, i)
    return id
  })
  return { lib, encoder, ids, store, close: async () => lib.close() }
}

describe('vectors written or removed after the index loaded', () => {
  it('ranks a re-analysed post by its new vector, in a search by meaning', async () => {
    const { lib, encoder, ids, store, close } = await library()
    const search = createSearch({ db: lib.db, encoder })
    try {
      search.indexQueued()
      search.catchUp()
      const top = async () => {
        const r = await search.search('baby sleep', { limit: 3, mode: 'semantic' })
        return { model: r.semanticModel, text: r.results[0]?.bookmark.text }
      }
      await until(async () => (await top()).model === LOCAL_EMBEDDING_MODEL)
      expect(await top()).toEqual({ model: LOCAL_EMBEDDING_MODEL, text: TODDLER })

      // Re-analysis rewrites both vectors in place: the SQLite post now carries the toddler post's vector and vice versa.
      store(ids[TEXTS.indexOf(SQLITE)], TEXTS.indexOf(TODDLER))
      store(ids[TEXTS.indexOf(TODDLER)], TEXTS.indexOf(SQLITE))
      expect(await top()).toEqual({ model: LOCAL_EMBEDDING_MODEL, text: SQLITE })
    } finally {
      await search.close()
      await close()
    }
  }, 60_000)

  it('drops a deleted post\'s vector, and reads a vector stored where the deleted last row was', async () => {
    const { lib, encoder, ids, store, close } = await library()
    const index = createSemanticIndex({ db: lib.db, embedder: encoder, ownsQueue: false })
    try {
      const qv = await index.embedQuery('baby sleep')
      const nearest = async () => (await index.query(qv, 1))[0]?.id
      index.preload()
      await until(() => !index.loading)
      expect(index.size).toBe(TEXTS.length)
      expect(await nearest()).toBe(ids[TEXTS.indexOf(TODDLER)])

      // The toddler post is the last row of embeddings; deleting it frees that row position.
      deleteBookmarks(lib.db, [ids[TEXTS.indexOf(TODDLER)]])
      expect(await nearest()).not.toBe(ids[TEXTS.indexOf(TODDLER)])
      expect(index.size).toBe(TEXTS.length - 1)

      // A new post whose vector takes that row position (and the toddler's vector) is found.
      const again = lib.add('Sleep training our baby, week two')
      store(again, TEXTS.indexOf(TODDLER))
      expect(await nearest()).toBe(again)
      expect(index.size).toBe(TEXTS.length)

      // So is a vector of another post rewritten in place.
      store(ids[TEXTS.indexOf(ESPRESSO)], TEXTS.indexOf(TODDLER))
      expect((await index.query(qv, 2)).map((h) => h.id).sort()).toEqual([again, ids[TEXTS.indexOf(ESPRESSO)]].sort())
    } finally {
      await close()
    }
  }, 60_000)

  it('reads a library\'s vectors stored before migration 0014 (none re-encoded), and their rewrites after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-search-upgrade-'))
    try {
      // The migrations up to 0013, and the vectors as that version wrote them (no seq).
      const before = join(dir, 'drizzle-0013')
      cpSync(MIGRATIONS_DIR, before, { recursive: true })
      const journal = JSON.parse(readFileSync(join(before, 'meta/_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> }
      journal.entries = journal.entries.filter((e) => e.tag < '0014')
      writeFileSync(join(before, 'meta/_journal.json'), JSON.stringify(journal))
      const embedder = createLocalEmbedder()
      const old = searchDb({ dir, migrationsDir: before })
      const ids = TEXTS.map((t) => old.add(t))
      const insert = sqliteOf(old.db).prepare("INSERT INTO embeddings (bookmark_id, model, dim, encoding, vector, content_hash) VALUES (?, ?, ?, 'f32', ?, ?)")
      ids.forEach((id, i) => {
        const v = embedder.embedNow!(TEXTS[i])
        insert.run(id, embedder.model, v.length, Buffer.from(v.buffer, v.byteOffset, v.byteLength), 'old')
      })
      old.close()

      const lib = searchDb({ dir })
      try {
        expect(sqliteOf(lib.db).prepare('SELECT DISTINCT content_hash || seq FROM embeddings').pluck().all()).toEqual(['old0'])
        const index = createSemanticIndex({ db: lib.db, embedder, ownsQueue: false })
        const qv = await index.embedQuery('sqlite index tuning')
        index.preload()
        await until(() => !index.loading)
        expect(index.size).toBe(TEXTS.length)
        expect((await index.query(qv, 1))[0]?.id).toBe(ids[TEXTS.indexOf(SQLITE)])

        writeEmbedding(lib.db, { bookmarkId: ids[TEXTS.indexOf(ESPRESSO)], model: embedder.model, vector: qv, contentHash: 'new' })
        expect((await index.query(qv, 1))[0]?.id).toBe(ids[TEXTS.indexOf(ESPRESSO)])
      } finally {
        lib.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
