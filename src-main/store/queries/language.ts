import { libraryStamp, sqliteOf, stmt, transaction, type Db } from '../db.ts'
import type { BookmarkRow } from '../schema.ts'

/**
 * Posts whose language was never decided (stored before migration 0009 with no usable code), lowest
 * id first, through the partial index bookmarks_lang_unchecked_idx.
 */
export const postsWithUncheckedLanguage = (db: Db, limit: number): Pick<BookmarkRow, 'id' | 'text'>[] =>
  stmt(db, 'SELECT id, text FROM bookmarks WHERE lang IS NULL AND lang_checked IS NULL ORDER BY id LIMIT ?').all(limit) as Pick<BookmarkRow, 'id' | 'text'>[]

export const countUncheckedLanguage = (db: Db): number =>
  stmt(db, 'SELECT count(*) FROM bookmarks WHERE lang IS NULL AND lang_checked IS NULL').pluck().get() as number

/** Stores decided languages (null: none) in one transaction; a post that got a language meanwhile keeps it. */
export function setCheckedLanguages(db: Db, rows: readonly { id: number; lang: string | null }[]): void {
  const update = stmt(db, 'UPDATE bookmarks SET lang = ?, lang_checked = 1 WHERE id = ? AND lang IS NULL')
  transaction(db, () => {
    for (const r of rows) update.run(r.lang, r.id)
  })
}

export interface LanguageCounts {
  languages: { lang: string; count: number }[]
  /** Posts with no language (too short, only links or media, or X said so). */
  none: number
  /** Posts from before migration 0009 the background check has not reached yet (counted in `none`). */
  pending: number
}

const cached = new WeakMap<object, { stamp: string; value: LanguageCounts }>()

/** Posts per language, most first, from the (lang, post_created_at) index; cached until the library changes. */
export function languageCounts(db: Db): LanguageCounts {
  const stamp = libraryStamp(db)
  const hit = cached.get(sqliteOf(db))
  if (hit && hit.stamp === stamp) return hit.value
  const rows = stmt(db, 'SELECT lang, count(*) AS count FROM bookmarks GROUP BY lang ORDER BY count DESC, lang').all() as { lang: string | null; count: number }[]
  const value: LanguageCounts = {
    languages: rows.filter((r): r is { lang: string; count: number } => r.lang !== null),
    none: rows.find((r) => r.lang === null)?.count ?? 0,
    pending: countUncheckedLanguage(db),
  }
  cached.set(sqliteOf(db), { stamp, value })
  return value
}

const idsByLang = new WeakMap<object, { stamp: string; byLang: Map<string, Set<number>> }>()

/**
 * Every post id in one language, from the (lang, post_created_at) index (~3 ms for 44,000 ids);
 * cached until the library changes. A `q` with a language is answered from this and the word
 * index's matches in memory, as a `q` alone is.
 */
export function bookmarkIdsInLanguage(db: Db, lang: string): Set<number> {
  const stamp = libraryStamp(db)
  let c = idsByLang.get(sqliteOf(db))
  if (!c || c.stamp !== stamp) idsByLang.set(sqliteOf(db), (c = { stamp, byLang: new Map() }))
  let ids = c.byLang.get(lang)
  if (!ids) {
    ids = new Set(stmt(db, 'SELECT id FROM bookmarks WHERE lang = ?').pluck().all(lang) as number[])
    if (c.byLang.size >= 8) c.byLang.delete(c.byLang.keys().next().value!)
    c.byLang.set(lang, ids)
  }
  return ids
}
