import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import {
  categoriesForBookmarks, iterateBookmarks, mergedPostsFor, knowledgeForBookmarks, mediaAnalysisFor, mediaForBookmarks, notesForBookmarks,
  postIdsByIds, statesFor, tagsForBookmarks, threadRecordsMatching, type BookmarkFilter, type BookmarkWithRaw, type Db, type KnowledgeRecord, type MediaAnalysis,
  type MediaRecord, type MergedPostRecord, type NoteRecord, type StateFlags,
} from '../../store/index.ts'
import { groupBy, recordToPost } from '../convert.ts'

/** Everything an export writes about one post. */
export interface ExportPost {
  record: BookmarkWithRaw
  post: NormalizedPost
  media: MediaRecord[]
  mediaAnalysis: MediaAnalysis[]
  categories: { name: string; slug: string; color: string; assignedBy: string; confidence: number }[]
  tags: string[]
  knowledge: KnowledgeRecord | null
  relatedPostIds: string[]
  notes: NoteRecord[]
  /** The exporting member's own flags on the post, null when they have none. */
  state: StateFlags | null
  /** Posts merged into this one. */
  merged: MergedPostRecord[]
  /** The post's thread (its root's post id, its place and the thread's size), null outside one. */
  thread: { rootPostId: string; position: number; size: number } | null
}

type Row = BookmarkWithRaw

/**
 * Keeps threads together: the first part of a thread met in the export's order brings the thread's
 * other matching parts with it, in reading order; the parts met later are skipped.
 */
function* withThreadsTogether(db: Db, f: BookmarkFilter, batches: Generator<Row[]>): Generator<Row[]> {
  const done = new Set<number>()
  for (const rows of batches) {
    const out: Row[] = []
    for (const r of rows) {
      if (r.threadRootId === null) out.push(r)
      else if (!done.has(r.threadRootId)) {
        done.add(r.threadRootId)
        out.push(...threadRecordsMatching(db, r.threadRootId, f))
      }
    }
    if (out.length) yield out
  }
}

export interface ExportScope {
  filter: BookmarkFilter
  /** Whose notes to include: one user's, or everyone's (an admin's backup). */
  notesOf: number | 'all'
  /** Whose read, starred and hidden flags to include: only ever the exporting member's own. */
  stateOf?: { userId: number; email: string }
}

/**
 * Reads the matching posts a batch at a time, each batch with its related rows (a handful of queries per batch).
 * Batches stay small so a batch's objects die young: at 500 posts they outlived the young generation, were
 * promoted, and a 100,000-post export grew the server's heap by ~150 MB between full collections.
 */
export function* exportBatches(db: Db, scope: ExportScope, batch = 100): Generator<ExportPost[]> {
  for (const rows of withThreadsTogether(db, scope.filter, iterateBookmarks(db, scope.filter, batch))) {
    const ids = rows.map((r) => r.id)
    const media = groupBy(mediaForBookmarks(db, ids), (m) => m.bookmarkId)
    const analysis = groupBy(mediaAnalysisFor(db, ids), (m) => m.bookmarkId)
    const cats = groupBy(categoriesForBookmarks(db, ids), (c) => c.bookmarkId)
    const tags = groupBy(tagsForBookmarks(db, ids), (t) => t.bookmarkId)
    const knowledge = new Map(knowledgeForBookmarks(db, ids).map((k) => [k.bookmarkId, k]))
    const notes = groupBy(notesForBookmarks(db, ids).filter((n) => scope.notesOf === 'all' || n.userId === scope.notesOf), (n) => n.bookmarkId)
    const merged = groupBy(mergedPostsFor(db, ids), (m) => m.bookmarkId)
    const states = scope.stateOf ? statesFor(db, scope.stateOf.userId, ids) : new Map<number, StateFlags>()
    const relatedIds = new Map<number, number[]>()
    for (const k of knowledge.values()) {
      try {
        const list = JSON.parse(k.relatedIds) as unknown
        relatedIds.set(k.bookmarkId, Array.isArray(list) ? list.filter((v): v is number => typeof v === 'number') : [])
      } catch {
        relatedIds.set(k.bookmarkId, [])
      }
    }
    const roots = rows.flatMap((r) => (r.threadRootId === null ? [] : [r.threadRootId]))
    const postIds = postIdsByIds(db, [...new Set([...relatedIds.values()].flat().concat(roots))])
    yield rows.map((record) => {
      const m = media.get(record.id) ?? []
      return {
        record,
        post: recordToPost(record, m),
        media: m,
        mediaAnalysis: analysis.get(record.id) ?? [],
        categories: (cats.get(record.id) ?? []).map(({ name, slug, color, assignedBy, confidence }) => ({ name, slug, color, assignedBy, confidence })),
        tags: (tags.get(record.id) ?? []).map((t) => t.name),
        knowledge: knowledge.get(record.id) ?? null,
        relatedPostIds: (relatedIds.get(record.id) ?? []).map((id) => postIds.get(id)).filter((p): p is string => p !== undefined),
        notes: notes.get(record.id) ?? [],
        state: states.get(record.id) ?? null,
        merged: merged.get(record.id) ?? [],
        thread: record.threadRootId === null ? null
          : { rootPostId: postIds.get(record.threadRootId) ?? '', position: record.threadPosition ?? 1, size: record.threadSize ?? 1 },
      }
    })
  }
}
