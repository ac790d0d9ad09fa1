import { SHEAF_EXPORT_FORMAT, SHEAF_EXPORT_VERSION, type SheafBookmark, type SheafCategory } from '../../../src-shared/schemas/sheaf-export.ts'
import { listCategories, type Db } from '../../store/index.ts'
import { iso } from '../convert.ts'
import { exportBatches, type ExportPost, type ExportScope } from './batches.ts'

const parse = <T>(s: string | null, d: T): T => {
  try {
    return s === null ? d : (JSON.parse(s) as T)
  } catch {
    return d
  }
}

export function toSheafBookmark(p: ExportPost, stateOwner?: string): SheafBookmark {
  const k = p.knowledge
  return {
    ...p.post,
    media: p.post.media.map((m, i) => {
      const a = p.mediaAnalysis[i]
      return { ...m, ocrText: a?.ocrText ?? null, visualTags: parse<string[] | null>(a?.visualTags ?? null, null), description: a?.description ?? null }
    }),
    importedAt: iso(p.record.importedAt),
    categories: p.categories.map((c) => ({ slug: c.slug, assignedBy: c.assignedBy as 'user' | 'pipeline', confidence: c.confidence })),
    knowledge: k === null ? null : {
      summary: k.summary,
      action: k.action as NonNullable<SheafBookmark['knowledge']>['action'],
      tags: p.tags,
      sentiment: k.sentiment as NonNullable<SheafBookmark['knowledge']>['sentiment'],
      confidence: k.confidence,
      analyzedAt: iso(k.analyzedAt),
      ossReport: parse<unknown>(k.ossReport, null),
      relatedPostIds: p.relatedPostIds,
      entities: parse<Record<string, unknown> | null>(k.entities, null),
      kind: k.kind,
      provider: k.provider,
    },
    tags: p.tags,
    notes: p.notes.map((n) => ({ userEmail: n.email, text: n.text })),
    states: p.state && stateOwner && (p.state.read || p.state.starred || p.state.hidden) ? [{ userEmail: stateOwner, ...p.state }] : [],
    merged: p.merged.map((m) => ({
      postId: m.postId, text: m.text, authorHandle: m.authorHandle, authorName: m.authorName, postCreatedAt: iso(m.postCreatedAt),
      importedAt: iso(m.importedAt), source: m.source, lang: m.lang, urls: parse(m.urls, []), engagement: parse(m.engagement, null),
      quoted: parse(m.quoted, null), rawJson: m.rawJson, mergedAt: iso(m.mergedAt),
    })),
    thread: p.thread,
  }
}

/** Sheaf's own format (src-shared/schemas/sheaf-export.ts), written a batch at a time. */
export function* sheafJsonChunks(db: Db, scope: ExportScope, now: number): Generator<string> {
  const categories: SheafCategory[] = listCategories(db).map((c) => ({ name: c.name, slug: c.slug, color: c.color, description: c.description }))
  // format and version first: importers recognise the file from its first bytes.
  yield `{"format":${JSON.stringify(SHEAF_EXPORT_FORMAT)},"version":${SHEAF_EXPORT_VERSION},"exportedAt":${JSON.stringify(iso(now))},` +
    `"categories":${JSON.stringify(categories)},"bookmarks":[`
  let first = true
  for (const batch of exportBatches(db, scope)) {
    let out = ''
    for (const p of batch) {
      out += (first ? '\n' : ',\n') + JSON.stringify(toSheafBookmark(p, scope.stateOf?.email))
      first = false
    }
    yield out
  }
  yield '\n]}\n'
}
