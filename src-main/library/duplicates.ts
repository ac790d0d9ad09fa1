import { AppError } from '../../src-shared/errors.ts'
import type { Duplicate, DuplicateReason, MergedRecord } from '../../src-shared/schemas/bookmarks.ts'
import type { Engagement } from '../../src-shared/schemas/posts.ts'
import {
  bookmarkById, bookmarkIdByPostId, bookmarksByIds, deleteBookmarks, foldBookmarkInto, foldMemberState, insertMergedPost, mergedPostsFor, movePostKeys,
  postsQuoting, postsSharingKeys, setEngagement, transaction, type BookmarkRecord, type Db, type PostKeyKind,
} from '../store/index.ts'
import { quotedIdOf } from '../duplicates/index.ts'
import { engagementOf, engagementScore, iso } from './convert.ts'

/** Copies shown on a post, at most. */
const MAX_DUPLICATES = 20
/** A key more posts than this share (a shop's support page, a conference link) says they are on one subject, not copies. */
const MAX_GROUP = 25
const EXCERPT = 200

const REASON: Record<PostKeyKind, DuplicateReason> = { link: 'same_link', quote: 'same_quote', text: 'same_text', meaning: 'same_meaning' }
const ORDER: readonly DuplicateReason[] = ['same_text', 'same_meaning', 'same_quote', 'same_link', 'translation']

const langOf = (r: Pick<BookmarkRecord, 'lang'>): string | null => {
  const l = r.lang?.toLowerCase() ?? null
  return l === null || l === '' || l === 'und' || l === 'zxx' || l === 'qme' || l === 'qht' ? null : l
}

/**
 * The saved posts that look like copies of `row` and why: keys shared with it (same link, quote,
 * text; same meaning from the pipeline), a post it quotes or that quotes it, and, for the same link
 * by the same author in another language, a likely translation.
 */
export function duplicatesOf(db: Db, row: BookmarkRecord): Duplicate[] {
  const reasons = new Map<number, Set<DuplicateReason>>()
  const add = (id: number, r: DuplicateReason) => {
    if (id === row.id) return
    let set = reasons.get(id)
    if (!set) reasons.set(id, (set = new Set()))
    set.add(r)
  }
  for (const s of postsSharingKeys(db, row.id, MAX_GROUP)) add(s.id, REASON[s.kind])
  for (const id of postsQuoting(db, row.postId, MAX_GROUP + 1)) add(id, 'same_quote')
  const quotedId = quotedIdOf(row.quoted)
  if (quotedId) {
    const q = bookmarkIdByPostId(db, quotedId)
    if (q !== null) add(q, 'same_quote')
  }
  if (reasons.size === 0) return []
  const rows = new Map(bookmarksByIds(db, [...reasons.keys()]).map((r) => [r.id, r]))
  const mine = langOf(row)
  const out: Duplicate[] = []
  for (const [id, set] of reasons) {
    const r = rows.get(id)
    if (!r) continue
    const theirs = langOf(r)
    if (set.has('same_link') && mine && theirs && mine !== theirs && r.authorHandle.toLowerCase() === row.authorHandle.toLowerCase()) set.add('translation')
    out.push({ id, postId: r.postId, authorHandle: r.authorHandle, text: r.text.slice(0, EXCERPT), reasons: ORDER.filter((x) => set.has(x)) })
  }
  const strength = (d: Duplicate) => d.reasons.length * 10 - ORDER.indexOf(d.reasons[0])
  return out.sort((a, b) => strength(b) - strength(a) || a.id - b.id).slice(0, MAX_DUPLICATES)
}

export const mergedRecordsOf = (db: Db, id: number): MergedRecord[] =>
  mergedPostsFor(db, [id]).map((m) => ({
    postId: m.postId, authorHandle: m.authorHandle, authorName: m.authorName, text: m.text, postCreatedAt: iso(m.postCreatedAt),
    importedAt: iso(m.importedAt), source: m.source, mergedAt: iso(m.mergedAt),
  }))

const larger = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.max(a, b))

/**
 * Folds post `otherId` into post `id` in one transaction: nothing of either is lost. The other record
 * (post id, text, author, dates, source, raw JSON) is kept on `id` as a merged record; its notes,
 * a person's categories, tags, media and analysis join `id`; the engagement numbers are the larger of
 * the two. Importing the other post again afterwards counts as a duplicate.
 */
export function mergeBookmarks(db: Db, id: number, otherId: number, opts: { userId: number | null; now: number }): void {
  if (id === otherId) throw new AppError('VALIDATION_ERROR', 'otherId: a post cannot be merged with itself; pick another post.', { field: 'otherId' })
  transaction(db, () => {
    const kept = bookmarkById(db, id)
    if (!kept) throw new AppError('NOT_FOUND', `No bookmark with id ${id}.`)
    const other = bookmarkById(db, otherId)
    if (!other) throw new AppError('NOT_FOUND', `No bookmark with id ${otherId} to merge (otherId).`)
    insertMergedPost(db, {
      bookmarkId: id, postId: other.postId, text: other.text, authorHandle: other.authorHandle, authorName: other.authorName,
      postCreatedAt: other.postCreatedAt, importedAt: other.importedAt, source: other.source, lang: other.lang, urls: other.urls,
      engagement: other.engagement, quoted: other.quoted, rawJson: other.rawJson, mergedAt: opts.now, mergedBy: opts.userId,
    })
    foldBookmarkInto(db, otherId, id, opts.now)
    foldMemberState(db, otherId, id, opts.now)
    movePostKeys(db, otherId, id)
    const a = engagementOf(kept)
    const b = engagementOf(other)
    const e: Engagement = {
      likes: larger(a.likes, b.likes), reposts: larger(a.reposts, b.reposts), replies: larger(a.replies, b.replies),
      quotes: larger(a.quotes, b.quotes), bookmarks: larger(a.bookmarks, b.bookmarks), views: larger(a.views, b.views),
    }
    if (JSON.stringify(e) !== JSON.stringify(a)) setEngagement(db, id, JSON.stringify(e), engagementScore(e), opts.now)
    deleteBookmarks(db, [otherId])
  })
}
