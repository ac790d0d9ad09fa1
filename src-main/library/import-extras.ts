import { NEUTRAL_CATEGORY_COLOR } from '../../src-shared/categories.ts'
import type { SheafExtras } from '../importers/index.ts'
import {
  assignCategory, bookmarkIdByPostId, categoryIdsBySlugs, ensureTag, fillMediaAnalysis, insertCategory, knowledgeFor,
  nextCategoryPosition, noteFor, putNote, rejectionsOf, setImportedAt, tagBookmark, upsertKnowledge, userIdByEmail,
  bookmarkById, insertMergedPost, insertPostKeys, putStates, statesFor, type Db,
} from '../store/index.ts'
import { normalizeTag } from './tags.ts'
import { duplicateKeys } from '../duplicates/index.ts'

/**
 * Re-attaches what a Sheaf export carries beyond the posts: categories and assignments, knowledge,
 * tags, notes (matched to accounts by e-mail), media analysis and the original import time. It adds
 * to what the library has and never overwrites: a user's own note or an existing analysis wins, and
 * a category the user removed here stays removed.
 */
export function applySheafExtras(db: Db, extras: SheafExtras, ctx: { now: number; inserted: Set<number> }): void {
  const slugs = categoryIdsBySlugs(db, extras.categories.map((c) => c.slug))
  let position = nextCategoryPosition(db)
  const ensureCategory = (slug: string): number => {
    const known = slugs.get(slug)
    if (known !== undefined) return known
    const c = extras.categories.find((x) => x.slug === slug)
    const id = insertCategory(db, {
      name: c?.name ?? slug, slug, color: (c?.color ?? NEUTRAL_CATEGORY_COLOR).toLowerCase(), description: c?.description ?? '',
      position: position++, createdAt: ctx.now,
    })
    slugs.set(slug, id)
    return id
  }
  for (const c of extras.categories) ensureCategory(c.slug)

  const idOf = new Map<string, number>()
  for (const postId of extras.bookmarks.keys()) {
    const id = bookmarkIdByPostId(db, postId)
    if (id !== null) idOf.set(postId, id)
  }
  for (const [postId, x] of extras.bookmarks) {
    const id = idOf.get(postId)
    if (id === undefined) continue
    if (ctx.inserted.has(id)) {
      const t = Date.parse(x.importedAt)
      if (!Number.isNaN(t)) setImportedAt(db, id, t)
    }
    const rejected = new Set(rejectionsOf(db, id))
    for (const a of x.categories) {
      const cid = ensureCategory(a.slug)
      if (a.assignedBy === 'pipeline' && rejected.has(cid)) continue
      assignCategory(db, id, cid, a.assignedBy, ctx.now, a.confidence)
    }
    const tagNames = new Set([...x.tags, ...(x.knowledge?.tags ?? [])].map(normalizeTag).filter(Boolean))
    for (const name of tagNames) tagBookmark(db, id, ensureTag(db, name))
    if (x.knowledge && !knowledgeFor(db, id)) {
      const k = x.knowledge
      const related = k.relatedPostIds.map((p) => idOf.get(p) ?? bookmarkIdByPostId(db, p)).filter((v): v is number => v !== null && v !== undefined)
      upsertKnowledge(db, {
        bookmarkId: id, summary: k.summary, action: k.action, sentiment: k.sentiment, confidence: k.confidence,
        relatedIds: JSON.stringify(related), ossReport: k.ossReport === null || k.ossReport === undefined ? null : JSON.stringify(k.ossReport),
        entities: k.entities ? JSON.stringify(k.entities) : null, kind: k.kind, provider: k.provider,
        contentHash: bookmarkById(db, id)?.contentHash ?? null, analyzedAt: Date.parse(k.analyzedAt) || ctx.now,
      })
    }
    for (const n of x.notes) {
      const uid = userIdByEmail(db, n.userEmail)
      if (uid !== null && noteFor(db, id, uid) === null && n.text.trim() !== '') putNote(db, id, uid, n.text, ctx.now)
    }
    for (const st of x.states) {
      const uid = userIdByEmail(db, st.userEmail)
      if (uid !== null && !statesFor(db, uid, [id]).has(id)) putStates(db, uid, [id], { read: st.read, starred: st.starred, hidden: st.hidden }, ctx.now)
    }
    for (const m of x.merged) {
      insertMergedPost(db, {
        bookmarkId: id, postId: m.postId, text: m.text, authorHandle: m.authorHandle, authorName: m.authorName,
        postCreatedAt: Date.parse(m.postCreatedAt) || ctx.now, importedAt: Date.parse(m.importedAt) || ctx.now, source: m.source, lang: m.lang,
        urls: JSON.stringify(m.urls), engagement: JSON.stringify(m.engagement ?? {}), quoted: m.quoted ? JSON.stringify(m.quoted) : null,
        rawJson: m.rawJson, mergedAt: Date.parse(m.mergedAt) || ctx.now, mergedBy: null,
      })
      insertPostKeys(db, id, duplicateKeys({ postId: m.postId, text: m.text, urls: m.urls, quotedPostId: m.quoted?.postId ?? null }))
    }
    x.media.forEach((m, position) => {
      if (m.ocrText !== null || m.visualTags !== null || m.description !== null) {
        fillMediaAnalysis(db, id, position, {
          ocrText: m.ocrText, visualTags: m.visualTags ? JSON.stringify(m.visualTags) : null, description: m.description,
        })
      }
    })
  }
}
