import { AppError } from '../../src-shared/errors.ts'
import type { Bookmark, BookmarkDetail, BookmarkList, CategorySummary, Knowledge } from '../../src-shared/schemas/bookmarks.ts'
import type { BookmarkFilterQuery, BookmarkListQuery, BulkBody, LanguageCounts } from '../../src-shared/schemas/library.ts'
import {
  inTransaction,
  assignCategory, assignmentsOf, bookmarkById, bookmarkIdsInLanguage, bookmarksByIds, categoriesForBookmarks, categoryBySlug, categoryIdsBySlugs,
  countBookmarks, deleteBookmarks, languageCounts, deleteNote, existingBookmarkIds, knowledgeFor, libraryStamp, mediaForBookmarks, noteFor, orderedBookmarkIds, pageBookmarkIds,
  putNote, searchTextMatchIds, STATE_FLAGS, stateIds, statesFor, tagsForBookmarks, transaction, unassignCategory, type BookmarkFilter, type Db, type PostHas,
  type KnowledgeRecord, type StateFilter,
} from '../store/index.ts'
import { assembleThreads, linkedPosts, threadOf } from '../threads/index.ts'
import { groupBy, iso, quotedOf, toBookmark } from './convert.ts'
import { duplicatesOf, mergeBookmarks, mergedRecordsOf } from './duplicates.ts'

const HAS_MEDIA: Record<NonNullable<BookmarkFilterQuery['media']>, PostHas> = { photo: 'photo', video: 'video', any: 'media', none: 'no-media' }

export const filterOf = (q: BookmarkFilterQuery & { threads?: string }): BookmarkFilter => ({
  category: q.category, source: q.source, q: q.q || undefined, author: q.author, has: q.media && [HAS_MEDIA[q.media]],
  from: q.from, to: q.to, uncategorized: q.uncategorized || undefined, tag: q.tag, lang: q.lang,
  threads: q.threads === 'collapsed' ? 'collapsed' : undefined,
})

/** A `q` search with no other filter than a language and the member's state: its page is cut from the index's matches in memory. */
const onlyWords = (f: BookmarkFilter): boolean =>
  f.q !== undefined && Object.entries(f).every(([k, v]) => k === 'q' || k === 'lang' || k === 'state' || v === undefined)

/** The caller's state filter: hidden posts are left out unless `hidden` was asked for. */
const stateFilterOf = (q: BookmarkListQuery, userId: number): StateFilter =>
  ({ userId, read: q.read, starred: q.starred, hidden: q.hidden ?? false })

/** Matches narrowed by the member's flags, from the flags' id sets (cached until their state changes). */
function withState(db: Db, words: Set<number> | null, s: StateFilter | undefined): Set<number> | null {
  if (!words || !s) return words
  let out = words
  for (const f of STATE_FLAGS) {
    const want = s[f]
    if (want === undefined) continue
    const ids = stateIds(db, s.userId, f)
    if (!want && ids.size === 0) continue
    const next = new Set<number>()
    for (const id of out) if (ids.has(id) === want) next.add(id)
    out = next
  }
  return out
}

/** The word index's matches, narrowed to one language (the language's ids cached until the library changes). */
function inLanguage(db: Db, words: Set<number> | null, lang: string | undefined): Set<number> | null {
  if (!words || lang === undefined) return words
  const inLang = bookmarkIdsInLanguage(db, lang)
  const [small, large] = words.size <= inLang.size ? [words, inLang] : [inLang, words]
  const both = new Set<number>()
  for (const id of small) if (large.has(id)) both.add(id)
  return both
}

/** The ids at [offset, offset + limit) of `order` that are in `wanted`. */
function pageOf(order: Int32Array, wanted: Set<number>, offset: number, limit: number): number[] {
  const page: number[] = []
  let seen = 0
  for (let i = 0; i < order.length && page.length < limit; i++) {
    if (wanted.has(order[i]) && seen++ >= offset) page.push(order[i])
  }
  return page
}

const CLEAR_STATE = { read: false, starred: false, hidden: false }

/** List items for the given ids with their categories and media (and `userId`'s own state): four queries for any page size. */
export function hydrate(db: Db, ids: readonly number[], userId?: number): Bookmark[] {
  const rows = bookmarksByIds(db, ids)
  const cats = groupBy(categoriesForBookmarks(db, ids), (c) => c.bookmarkId)
  const media = groupBy(mediaForBookmarks(db, ids), (m) => m.bookmarkId)
  const items = rows.map((r) => toBookmark(r, (cats.get(r.id) ?? []).map(categorySummary), media.get(r.id) ?? []))
  if (userId === undefined) return items
  const states = statesFor(db, userId, ids)
  return items.map((b) => ({ ...b, state: states.get(b.id) ?? { ...CLEAR_STATE } }))
}

type CategoryRow = ReturnType<typeof categoriesForBookmarks>[number]
const categorySummary = (c: CategoryRow): CategorySummary => ({
  name: c.name, slug: c.slug, color: c.color, confidence: c.confidence, assignedBy: c.assignedBy === 'user' ? 'user' : 'pipeline',
})

/** Each low-confidence assignment with its post, for a person to confirm (assign) or remove. */
export function reviewItems(db: Db, rows: ReadonlyArray<{ bookmarkId: number; categoryId: number }>, userId?: number): Array<{ bookmark: Bookmark; category: CategorySummary }> {
  const posts = new Map(hydrate(db, [...new Set(rows.map((r) => r.bookmarkId))], userId).map((b) => [b.id, b]))
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

/** How long a `q`'s matches are reused while only the search index moves, or while an import writes. */
const REUSE_MS = 1000

/** `beforeDuplicates`: keys what is still queued for duplicate keys, when little is (duplicate-keys-fill.ts). */
export function createBookmarks({ db, clock, beforeDuplicates = () => {}, onCategoriesChanged = () => {} }: {
  db: Db
  clock: () => number
  beforeDuplicates?: () => void
  onCategoriesChanged?: () => void
}) {
  /**
   * The posts matching `q`'s words (searchTextMatchIds, cached until anything in the database
   * changes). Right after an import the search index writes in the background for a while, and
   * during one the importer writes every few milliseconds: each write used to send every `q` back to
   * a LIKE pass over the posts not indexed yet (~5 ms a request at 10,000 of them, enough to fill the
   * HTTP thread at 50 requests/s). So a result is reused for up to a second when the library itself
   * has not changed (the index moving a post from the LIKE pass to its own matches changes nothing a
   * reader sees), or while an import's transaction is open (its new posts show up within the second).
   * An edit outside an import always answers fresh.
   */
  const recent = new Map<string, { ids: Set<number> | null; at: number; library: string }>()
  const queryMatches = (q: string): Set<number> | null => {
    const now = performance.now()
    const library = libraryStamp(db)
    const hit = recent.get(q)
    if (hit && now - hit.at < REUSE_MS && (hit.library === library || inTransaction(db))) return hit.ids
    const ids = searchTextMatchIds(db, q)
    if (recent.size >= 50) recent.delete(recent.keys().next().value!)
    recent.set(q, { ids, at: now, library })
    return ids
  }
  const wordMatches = (f: BookmarkFilter): Set<number> | null => withState(db, inLanguage(db, queryMatches(f.q!), f.lang), f.state)
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

  /** Related ids are written by the last analysis; posts deleted or merged away since are left out. */
  const withoutGone = (k: Knowledge): Knowledge => {
    const live = new Set(existingBookmarkIds(db, k.relatedIds))
    return { ...k, relatedIds: k.relatedIds.filter((r) => live.has(r)) }
  }

  return {
    /** One page for `userId`, each post with their own state; their hidden posts only when asked for. */
    list(q: BookmarkListQuery, userId: number): BookmarkList {
      const filter: BookmarkFilter = { ...filterOf(q), state: stateFilterOf(q, userId) }
      const offset = (q.page - 1) * q.limit
      const words = onlyWords(filter) ? wordMatches(filter) : null
      if (words) {
        const ids = pageOf(orderedBookmarkIds(db, q.sort), words, offset, q.limit)
        return { bookmarks: hydrate(db, ids, userId), total: words.size, page: q.page, limit: q.limit }
      }
      const total = countBookmarks(db, filter)
      const ids = offset >= total ? [] : pageBookmarkIds(db, filter, q.sort, q.limit, offset, { matches: total, all: countBookmarks(db, {}) })
      return { bookmarks: hydrate(db, ids, userId), total, page: q.page, limit: q.limit }
    },

    /** List items for ids, in that order, with `userId`'s own state. */
    items(ids: readonly number[], userId: number): Bookmark[] {
      return hydrate(db, ids, userId)
    },

    /** The languages present with their post counts (the filter bar offers only these). */
    languages(): LanguageCounts {
      return languageCounts(db)
    },

    detail(id: number, userId: number): BookmarkDetail {
      const row = mustExist(id)
      beforeDuplicates()
      const [item] = hydrate(db, [id], userId)
      const k = knowledgeFor(db, id)
      const tags = tagsForBookmarks(db, [id]).map((t) => t.name)
      const quoted = quotedOf(row)
      const [inReplyTo, quotes] = linkedPosts(db, [row.inReplyToPostId, quoted?.postId ?? null])
      return {
        ...item,
        rawJson: row.rawJson,
        knowledge: k ? withoutGone(toKnowledge(k, tags)) : null,
        quoted,
        note: noteFor(db, id, userId),
        duplicates: duplicatesOf(db, row),
        merged: mergedRecordsOf(db, id),
        thread: threadOf(db, row),
        inReplyTo,
        quotes,
      }
    },

    /** Folds post `otherId` into `id` (library/duplicates.ts) and returns the kept post. */
    merge(id: number, otherId: number, userId: number): BookmarkDetail {
      beforeDuplicates() // the other post's keys move to this one
      mergeBookmarks(db, id, otherId, { userId, now: clock() })
      transaction(db, () => assembleThreads(db))
      return this.detail(id, userId)
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
      transaction(db, () => {
        deleteBookmarks(db, [id])
        assembleThreads(db)
      })
    },

    /** One transaction; ids that do not exist are ignored and not counted. */
    bulk(body: BulkBody): { action: BulkBody['action']; affected: number } {
      const cid = body.action === 'delete' ? null : categoryId(body.slug!)
      return transaction(db, () => {
        const ids = existingBookmarkIds(db, [...new Set(body.ids)])
        let affected = 0
        if (body.action === 'delete') {
          affected = deleteBookmarks(db, ids)
          assembleThreads(db)
        }
        else if (body.action === 'addCategory') for (const id of ids) affected += assignCategory(db, id, cid!, 'user', clock()) ? 1 : 0
        else for (const id of ids) affected += unassignCategory(db, id, cid!, clock()) ? 1 : 0
        return { action: body.action, affected }
      })
    },
  }
}

export type Bookmarks = ReturnType<typeof createBookmarks>
