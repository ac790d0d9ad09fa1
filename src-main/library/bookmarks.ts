import { AppError } from '../../src-shared/errors.ts'
import type { Bookmark, BookmarkDetail, BookmarkList, CategorySummary, Knowledge } from '../../src-shared/schemas/bookmarks.ts'
import type { BookmarkListQuery, BulkBody } from '../../src-shared/schemas/library.ts'
import {
  assignCategory, assignmentsOf, bookmarkById, bookmarksByIds, categoriesForBookmarks, categoryBySlug, categoryIdsBySlugs,
  countBookmarks, deleteBookmarks, deleteNote, existingBookmarkIds, knowledgeFor, mediaForBookmarks, noteFor, orderedBookmarkIds, pageBookmarkIds,
  putNote, searchTextMatchIds, tagsForBookmarks, transaction, unassignCategory, type BookmarkFilter, type Db, type KnowledgeRecord,
} from '../store/index.ts'
import { groupBy, iso, quotedOf, toBookmark } from './convert.ts'

export const filterOf = (q: Partial<BookmarkFilter>): BookmarkFilter => ({
  category: q.category, source: q.source, q: q.q || undefined, author: q.author, media: q.media,
  from: q.from, to: q.to, uncategorized: q.uncategorized || undefined, tag: q.tag,
})

/** A `q` search with no other filter: its page is cut from the index's matches in memory. */
const onlyWords = (f: BookmarkFilter): boolean =>
  f.q !== undefined && Object.entries(f).every(([k, v]) => k === 'q' || v === undefined)

/** The ids at [offset, offset + limit) of `order` that are in `wanted`. */
function pageOf(order: Int32Array, wanted: Set<number>, offset: number, limit: number): number[] {
  const page: number[] = []
  let seen = 0
  for (let i = 0; i < order.length && page.length < limit; i++) {
    if (wanted.has(order[i]) && seen++ >= offset) page.push(order[i])
  }
  return page
}

/** List items for the given ids with their categories and media: three queries for any page size. */
export function hydrate(db: Db, ids: readonly number[]): Bookmark[] {
  const rows = bookmarksByIds(db, ids)
  const cats = groupBy(categoriesForBookmarks(db, ids), (c) => c.bookmarkId)
  const media = groupBy(mediaForBookmarks(db, ids), (m) => m.bookmarkId)
  return rows.map((r) => toBookmark(r, (cats.get(r.id) ?? []).map(categorySummary), media.get(r.id) ?? []))
}

type CategoryRow = ReturnType<typeof categoriesForBookmarks>[number]
const categorySummary = (c: CategoryRow): CategorySummary => ({
  name: c.name, slug: c.slug, color: c.color, confidence: c.confidence, assignedBy: c.assignedBy === 'user' ? 'user' : 'pipeline',
})

/** Each low-confidence assignment with its post, for a person to confirm (assign) or remove. */
export function reviewItems(db: Db, rows: ReadonlyArray<{ bookmarkId: number; categoryId: number }>): Array<{ bookmark: Bookmark; category: CategorySummary }> {
  const posts = new Map(hydrate(db, [...new Set(rows.map((r) => r.bookmarkId))]).map((b) => [b.id, b]))
  const assigned = new Map(categoriesForBookmarks(db, [...posts.keys()]).map((c) => [`${c.bookmarkId}:${c.id}`, c]))
  return rows.flatMap((r) => {
    const bookmark = posts.get(r.bookmarkId)
    const c = assigned.get(`${r.bookmarkId}:${r.categoryId}`)
    return bookmark && c ? [{ bookmark, category: categorySummary(c) }] : []
  })
}

export function toKnowledge(k: KnowledgeRecord, tags: string[]): Knowledge {
  const parse = <T>(s: string | null, d: T): T => {
    try {
      return s === null ? d : (JSON.parse(s) as T)
    } catch {
      return d
    }
  }
  return {
    summary: k.summary,
    action: k.action as Knowledge['action'],
    tags,
    sentiment: k.sentiment as Knowledge['sentiment'],
    confidence: k.confidence,
    relatedIds: parse<number[]>(k.relatedIds, []),
    analyzedAt: iso(k.analyzedAt),
    ossReport: parse<unknown>(k.ossReport, null),
  }
}

export function createBookmarks({ db, clock, onCategoriesChanged = () => {} }: { db: Db; clock: () => number; onCategoriesChanged?: () => void }) {
  const mustExist = (id: number) => {
    const row = bookmarkById(db, id)
    if (!row) throw new AppError('NOT_FOUND', `No bookmark with id ${id}.`)
    return row
  }
  const categoryId = (slug: string): number => {
    const c = categoryBySlug(db, slug)
    if (!c) throw new AppError('VALIDATION_ERROR', `slug: there is no category "${slug}" (see GET /api/categories).`, { field: 'slug' })
    return c.id
  }
  const categoriesOf = (id: number): CategorySummary[] => categoriesForBookmarks(db, [id]).map(categorySummary)

  return {
    list(q: BookmarkListQuery): BookmarkList {
      const filter = filterOf(q)
      const offset = (q.page - 1) * q.limit
      const words = onlyWords(filter) ? searchTextMatchIds(db, filter.q!) : null
      if (words) {
        const ids = pageOf(orderedBookmarkIds(db, q.sort), words, offset, q.limit)
        return { bookmarks: hydrate(db, ids), total: words.size, page: q.page, limit: q.limit }
      }
      const total = countBookmarks(db, filter)
      const ids = offset >= total ? [] : pageBookmarkIds(db, filter, q.sort, q.limit, offset, { matches: total, all: countBookmarks(db, {}) })
      return { bookmarks: hydrate(db, ids), total, page: q.page, limit: q.limit }
    },

    detail(id: number, userId: number): BookmarkDetail {
      const row = mustExist(id)
      const [item] = hydrate(db, [id])
      const k = knowledgeFor(db, id)
      const tags = tagsForBookmarks(db, [id]).map((t) => t.name)
      return {
        ...item,
        rawJson: row.rawJson,
        knowledge: k ? toKnowledge(k, tags) : null,
        quoted: quotedOf(row),
        note: noteFor(db, id, userId),
        lang: row.lang,
      }
    },

    /** Replaces the post's categories with `slugs`, all as the user's choice. */
    setCategories(id: number, slugs: string[]): CategorySummary[] {
      mustExist(id)
      const wanted = [...new Set(slugs)]
      const ids = categoryIdsBySlugs(db, wanted)
      const missing = wanted.filter((s) => !ids.has(s))
      if (missing.length) throw new AppError('VALIDATION_ERROR', `slugs: no category ${missing.map((s) => `"${s}"`).join(', ')} (see GET /api/categories).`, { field: 'slugs' })
      const keep = new Set(ids.values())
      transaction(db, () => {
        for (const a of assignmentsOf(db, id)) if (!keep.has(a.categoryId)) unassignCategory(db, id, a.categoryId, clock())
        for (const cid of keep) assignCategory(db, id, cid, 'user', clock())
      })
      onCategoriesChanged()
      return categoriesOf(id)
    },

    addCategory(id: number, slug: string): CategorySummary[] {
      mustExist(id)
      assignCategory(db, id, categoryId(slug), 'user', clock())
      onCategoriesChanged()
      return categoriesOf(id)
    },

    removeCategory(id: number, slug: string): CategorySummary[] {
      mustExist(id)
      transaction(db, () => unassignCategory(db, id, categoryId(slug), clock()))
      onCategoriesChanged()
      return categoriesOf(id)
    },

    /** The signed-in person's private note; empty text deletes it. */
    setNote(id: number, userId: number, text: string): string | null {
      mustExist(id)
      if (text.trim() === '') {
        deleteNote(db, id, userId)
        return null
      }
      putNote(db, id, userId, text, clock())
      return text
    },

    remove(id: number): void {
      mustExist(id)
      deleteBookmarks(db, [id])
    },

    /** One transaction; ids that do not exist are ignored and not counted. */
    bulk(body: BulkBody): { action: BulkBody['action']; affected: number } {
      const cid = body.action === 'delete' ? null : categoryId(body.slug!)
      return transaction(db, () => {
        const ids = existingBookmarkIds(db, [...new Set(body.ids)])
        let affected = 0
        if (body.action === 'delete') affected = deleteBookmarks(db, ids)
        else if (body.action === 'addCategory') for (const id of ids) affected += assignCategory(db, id, cid!, 'user', clock()) ? 1 : 0
        else for (const id of ids) affected += unassignCategory(db, id, cid!, clock()) ? 1 : 0
        return { action: body.action, affected }
      })
    },
  }
}

export type Bookmarks = ReturnType<typeof createBookmarks>
