import { LOCAL_EMBEDDING_MODEL } from '../../ai/index.ts'
import type { Entities } from '../../ai/local/index.ts'
import {
  embeddingsFor, knowledgeForBookmarks, loadPipelinePosts, tagsForBookmarks, threadParts, threadPlacesOf, type Db, type PipelinePost,
} from '../../store/index.ts'
import { toEnginePost, type RunContext } from '../context.ts'

export type Suggestion = { categoryId: number; confidence: number }

/** The analysed parts of each thread that `ids` touch, in reading order, by root id. */
function analysedThreads(db: Db, ids: readonly number[]): Map<number, number[]> {
  const roots = new Set(threadPlacesOf(db, ids).map((p) => p.rootId))
  const out = new Map<number, number[]>()
  for (const root of roots) {
    const parts = threadParts(db, root).map((p) => p.id)
    const analysed = new Set(knowledgeForBookmarks(db, parts).map((k) => k.bookmarkId))
    const ready = parts.filter((id) => analysed.has(id))
    if (ready.length > 1) out.set(root, ready)
  }
  return out
}

function meanVector(vectors: Float32Array[]): Float32Array {
  const v = new Float32Array(vectors[0].length)
  for (const x of vectors) for (let d = 0; d < v.length; d++) v[d] += x[d]
  let n = 0
  for (let d = 0; d < v.length; d++) n += v[d] * v[d]
  n = Math.sqrt(n)
  if (n > 0) for (let d = 0; d < v.length; d++) v[d] /= n
  return v
}

/** A thread as one post for the categoriser: its parts' text in order, their tags, the mean of their vectors. */
function combined(posts: PipelinePost[], entities: string | null, tags: string[], vectors: Float32Array[]) {
  const lead = posts[0]
  const post = toEnginePost({ ...lead, text: posts.map((p) => p.text).join('\n\n'), media: posts.flatMap((p) => p.media) })
  let parsed: Entities = {} as Entities
  try {
    parsed = (entities ? JSON.parse(entities) : {}) as Entities
  } catch {
    // an unreadable row reads as no entities
  }
  return { id: lead.id, post, entities: parsed, tags, vector: meanVector(vectors) }
}

/**
 * Categories decided once per thread, on the thread's combined text and meaning, for every analysed
 * part (those outside this batch too), so a thread's parts agree. A remote provider's answer for a
 * part (the first part that has one) stands for the whole thread. Returns the suggestions by part id.
 */
export async function threadSuggestions(ids: readonly number[], ctx: Pick<RunContext, 'db' | 'runner' | 'categories' | 'remoteCategories'>): Promise<Map<number, Suggestion[]>> {
  const threads = analysedThreads(ctx.db, ids)
  const out = new Map<number, Suggestion[]>()
  if (threads.size === 0) return out
  const bySlug = new Map(ctx.categories.map((c) => [c.slug, c.id]))
  const inputs = []
  for (const parts of threads.values()) {
    const remote = parts.map((id) => ctx.remoteCategories.get(id)).find((r) => r !== undefined)
    if (remote) {
      const picks = remote.flatMap((c) => (bySlug.has(c.slug) ? [{ categoryId: bySlug.get(c.slug)!, confidence: c.confidence }] : []))
      for (const id of parts) out.set(id, picks)
      continue
    }
    const vectors = embeddingsFor(ctx.db, LOCAL_EMBEDDING_MODEL, parts)
    const withVector = parts.filter((id) => vectors.has(id))
    if (withVector.length === 0) continue
    const posts = loadPipelinePosts(ctx.db, withVector)
    const order = new Map(withVector.map((id, i) => [id, i]))
    posts.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
    const tags = [...new Set(tagsForBookmarks(ctx.db, withVector).map((t) => t.name))]
    const lead = knowledgeForBookmarks(ctx.db, [withVector[0]])[0]
    inputs.push({ parts, input: combined(posts, lead?.entities ?? null, tags, withVector.map((id) => vectors.get(id)!)) })
  }
  const answers = await ctx.runner.categorize(inputs.map((i) => i.input))
  const byLead = new Map(answers.map((a) => [a.id, a.categories]))
  for (const { parts, input } of inputs) for (const id of parts) out.set(id, byLead.get(input.id) ?? [])
  return out
}
