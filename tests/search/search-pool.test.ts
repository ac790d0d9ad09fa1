import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bookmarksForHits, hitsFrom } from '../../src-main/search/hits.ts'
import { searchDocuments, searchPool } from '../../src-main/store/index.ts'
import { sqliteOf } from '../../src-main/store/db.ts'
import { searchDb } from './search-db.ts'

/** Search's pool is read once for the explanation and the hits: it must read what the two reads of each would. */
describe("search's pool, read once", () => {
  let lib: ReturnType<typeof searchDb>
  const ids: number[] = []

  beforeAll(() => {
    lib = searchDb()
    const sql = sqliteOf(lib.db)
    for (let i = 0; i < 8; i++) ids.push(lib.add(`Post ${i} about sourdough and rust`, `author${i % 3}`))
    sql.prepare("UPDATE bookmarks SET urls = ?, engagement = ?, quoted = ?, created_at = ? WHERE id = ?")
      .run('[{"url":"https://t.co/x","expandedUrl":"https://example.com/a"},{"url":"https://t.co/y"}]', '{"likes":3,"views":"9"}', '{"text":"the quoted words"}', Date.UTC(2024, 5, 1), ids[1])
    const media = sql.prepare(`INSERT INTO media (bookmark_id, position, type, url, thumbnail_url, video_url, alt_text, cache_path, ocr_text, description)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    // Out of position order, a shared position, parts missing or empty: the view's ocr joins them in its own order.
    media.run(ids[0], 2, 'photo', 'https://m/2', 'https://m/2t', null, 'second alt', null, 'SECOND OCR', null)
    media.run(ids[0], 0, 'video', 'https://m/0', 'https://m/0t', 'https://m/0v', null, '/cache/0', null, null)
    media.run(ids[0], 1, 'photo', 'https://m/1', 'https://m/1t', null, '', null, 'first ocr', 'a description')
    media.run(ids[0], 1, 'animated_gif', 'https://m/1b', 'https://m/1bt', null, 'gif alt', null, null, 'gif description')
    media.run(ids[2], 0, 'photo', 'https://m/x', 'https://m/xt', null, null, null, null, null)
    media.run(ids[5], 0, 'photo', 'https://m/y', 'https://m/yt', null, 'only alt', '/cache/y', null, null)
    sql.prepare("INSERT INTO tags (name) VALUES ('bread'), ('rust')").run()
    sql.prepare('INSERT INTO bookmark_tags (bookmark_id, tag_id) VALUES (?, 1), (?, 2), (?, 2)').run(ids[0], ids[0], ids[3])
    sql.prepare("INSERT INTO categories (name, slug, color, position) VALUES ('Zeta', 'zeta', '#111', 0), ('Alpha', 'alpha', '#222', 1)").run()
    sql.prepare("INSERT INTO bookmark_categories (bookmark_id, category_id, assigned_by) VALUES (?, 1, 'user'), (?, 2, 'user'), (?, 2, 'user')").run(ids[0], ids[0], ids[4])
    sql.prepare('INSERT INTO thread_parts (bookmark_id, root_id, position, size) VALUES (?, ?, 2, 3)').run(ids[6], ids[5])
    sql.prepare(`INSERT INTO knowledge (bookmark_id, summary, action, sentiment, confidence, entities, analyzed_at)
      VALUES (?, 'A summary', 'read', 'neutral', 0.9, '{"tools":["Rust"]}', 0)`).run(ids[3])
  })
  afterAll(() => lib.close())

  it('reads what searchDocuments reads for the explanation, image text joined as the view joins it', () => {
    const pool = [...ids, 99_999].reverse()
    const byId = <T extends { id: number }>(xs: T[]) => [...xs].sort((a, b) => a.id - b.id)
    const docs = byId(searchPool(lib.db, pool).docs)
    expect(docs).toEqual(byId(searchDocuments(lib.db, pool)))
    expect(docs.find((d) => d.id === ids[0])?.ocr).toBe(' first ocr  a description gif alt gif description SECOND OCR second alt')
    expect(docs.find((d) => d.id === ids[2])?.ocr).toBe('')
    expect(docs.find((d) => d.id === ids[4])?.ocr).toBeNull()
  })

  it('builds the hits a read of the hits alone builds, for any of the pool', () => {
    const read = searchPool(lib.db, ids)
    for (const shown of [ids.slice(0, 3), [ids[6], ids[0], ids[5]], ids]) {
      const hits = hitsFrom(read, shown)
      expect([...hits.keys()].sort()).toEqual([...shown].sort())
      expect(new Map([...hits].sort((a, b) => a[0] - b[0]))).toEqual(new Map([...bookmarksForHits(lib.db, shown)].sort((a, b) => a[0] - b[0])))
    }
    expect(hitsFrom(read, [ids[0]]).get(ids[0])?.media.map((m) => m.url)).toEqual(['https://m/0', 'https://m/1', 'https://m/1b', 'https://m/2'])
  })

  it('reads nothing for an empty pool', () => {
    expect(searchPool(lib.db, [])).toEqual({ docs: [], rows: [], media: [], categories: [] })
  })
})
