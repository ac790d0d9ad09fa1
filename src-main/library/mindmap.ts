import { AppError } from '../../src-shared/errors.ts'
import type { Mindmap, MindmapEdge, MindmapNode, MindmapQuery } from '../../src-shared/schemas/mindmap.ts'
import {
  categoryBySlug, countBookmarksAll, countCategorized, libraryStamp, listCategories, newestInCategory, newestUncategorized, relatedIdsFor,
  tagsForBookmarks, type Db,
} from '../store/index.ts'

const MAX_TAG_NODES = 60
const LABEL_CHARS = 80
const UNCATEGORIZED = 'uncategorized'

const label = (p: { text: string; authorHandle: string }) => {
  const t = p.text.replace(/\s+/g, ' ').trim()
  return t.length > LABEL_CHARS ? `${t.slice(0, LABEL_CHARS - 1)}…` : t || `@${p.authorHandle}`
}

/**
 * Root → categories → their newest posts (bounded per category), plus tags and "related" links among
 * the posts shown. `category` pages through one category instead.
 */
export function createMindmap({ db }: { db: Db }) {
  // The map only changes with the library: answers are kept per query until it changes.
  let cache: { stamp: string; byKey: Map<string, Mindmap> } = { stamp: '', byKey: new Map() }
  return {
    get(q: MindmapQuery): Mindmap {
      const stamp = libraryStamp(db)
      if (cache.stamp !== stamp) cache = { stamp, byKey: new Map() }
      const key = JSON.stringify(q)
      const hit = cache.byKey.get(key)
      if (hit) return hit
      const map = build(q)
      if (cache.byKey.size < 100) cache.byKey.set(key, map)
      return map
    },
  }

  function build(q: MindmapQuery): Mindmap {
    {
      const nodes: MindmapNode[] = [{ id: 'root', type: 'root', label: 'Library', count: countBookmarksAll(db) }]
      const edges: MindmapEdge[] = []
      const shown = new Map<number, MindmapNode>()
      const addPosts = (parent: string, posts: { id: number; text: string; authorHandle: string }[]) => {
        for (const p of posts) {
          const id = `bookmark:${p.id}`
          if (!shown.has(p.id)) {
            const node: MindmapNode = { id, type: 'bookmark', label: label(p), bookmarkId: p.id }
            shown.set(p.id, node)
            nodes.push(node)
          }
          edges.push({ source: parent, target: id, type: 'contains' })
        }
      }
      let paging: { page: number; pages: number } | undefined
      if (q.category !== undefined) {
        const isUncat = q.category === UNCATEGORIZED && !categoryBySlug(db, UNCATEGORIZED)
        const c = isUncat ? null : categoryBySlug(db, q.category)
        if (!isUncat && !c) throw new AppError('NOT_FOUND', `No category "${q.category}".`)
        const count = c ? c.bookmarkCount : countBookmarksAll(db) - countCategorized(db)
        const nodeId = c ? `category:${c.id}` : UNCATEGORIZED
        nodes.push({ id: nodeId, type: 'category', label: c ? c.name : 'Uncategorized', count, ...(c ? { color: c.color, slug: c.slug } : { slug: UNCATEGORIZED }) })
        edges.push({ source: 'root', target: nodeId, type: 'contains' })
        const offset = (q.page - 1) * q.perCategory
        addPosts(nodeId, c ? newestInCategory(db, c.id, q.perCategory, offset, { matches: count, all: countBookmarksAll(db) }) : newestUncategorized(db, q.perCategory, offset))
        paging = { page: q.page, pages: Math.max(1, Math.ceil(count / q.perCategory)) }
      } else {
        const all = countBookmarksAll(db)
        for (const c of listCategories(db)) {
          const nodeId = `category:${c.id}`
          nodes.push({ id: nodeId, type: 'category', label: c.name, count: c.bookmarkCount, color: c.color, slug: c.slug })
          edges.push({ source: 'root', target: nodeId, type: 'contains' })
          if (c.bookmarkCount > 0) addPosts(nodeId, newestInCategory(db, c.id, q.perCategory, 0, { matches: c.bookmarkCount, all }))
        }
        const uncategorized = countBookmarksAll(db) - countCategorized(db)
        if (uncategorized > 0) {
          nodes.push({ id: UNCATEGORIZED, type: 'category', label: 'Uncategorized', count: uncategorized, slug: UNCATEGORIZED })
          edges.push({ source: 'root', target: UNCATEGORIZED, type: 'contains' })
          addPosts(UNCATEGORIZED, newestUncategorized(db, q.perCategory))
        }
      }
      if (q.tags && shown.size > 0) addTagsAndRelated(db, [...shown.keys()], nodes, edges)
      return { nodes, edges, ...paging }
    }
  }
}

function addTagsAndRelated(db: Db, ids: number[], nodes: MindmapNode[], edges: MindmapEdge[]): void {
  const tagged = tagsForBookmarks(db, ids)
  const freq = new Map<number, { name: string; n: number }>()
  for (const t of tagged) {
    const f = freq.get(t.tagId)
    if (f) f.n++
    else freq.set(t.tagId, { name: t.name, n: 1 })
  }
  const kept = new Set([...freq.entries()].sort((a, b) => b[1].n - a[1].n || a[1].name.localeCompare(b[1].name))
    .slice(0, MAX_TAG_NODES).map(([id]) => id))
  for (const id of kept) nodes.push({ id: `tag:${id}`, type: 'tag', label: freq.get(id)!.name, count: freq.get(id)!.n })
  for (const t of tagged) if (kept.has(t.tagId)) edges.push({ source: `bookmark:${t.bookmarkId}`, target: `tag:${t.tagId}`, type: 'tagged' })
  const visible = new Set(ids)
  const seen = new Set<string>()
  for (const r of relatedIdsFor(db, ids)) {
    let related: unknown
    try {
      related = JSON.parse(r.relatedIds)
    } catch {
      continue
    }
    if (!Array.isArray(related)) continue
    for (const other of related) {
      if (typeof other !== 'number' || !visible.has(other) || other === r.bookmarkId) continue
      const key = r.bookmarkId < other ? `${r.bookmarkId}-${other}` : `${other}-${r.bookmarkId}`
      if (seen.has(key)) continue
      seen.add(key)
      edges.push({ source: `bookmark:${r.bookmarkId}`, target: `bookmark:${other}`, type: 'related' })
    }
  }
}
