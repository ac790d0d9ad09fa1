import { setImmediate as yieldToLoop } from 'node:timers/promises'
import { LOCAL_EMBEDDING_MODEL } from '../../ai/index.ts'
import type { EngineConfig } from '../../ai/index.ts'
import { encodeCategories, type CategoryExample, type Entities } from '../../ai/local/index.ts'
import { nearIdenticalPairs } from '../../duplicates/index.ts'
import {
  categoryLocks, countEmbeddings, eachEmbedding, embeddingIds, embeddingsFor, knowledgeForBookmarks, loadPipelinePosts, relatedKeysPage,
  replaceMeaningPairs, replacePipelineCategories, setRelatedIds, tagsForBookmarks, threadParts, threadPlacesOf, userCategoryExamples, type Db,
  type KnowledgeRecord, type PipelinePost,
} from '../../store/index.ts'
import { rowsFor, writeRow, type ClusteredIndexInput, type ClusteredRows, type Loan } from '../../vectors/index.ts'
import { toEnginePost, type RunContext, type Stage } from '../context.ts'

const MAX_CATEGORIES = 3
const RELATED = 5

/** Keys of "shared entities" for related posts: tags, tools, hashtags, repositories, people… lowercased. */
export function relatedKeys(entities: Partial<Entities> | null, tags: string[]): string[] {
  const e = entities ?? {}
  return [
    ...tags.map((t) => `t:${t}`),
    ...[...(e.tools ?? []), ...(e.products ?? []), ...(e.companies ?? []), ...(e.people ?? []), ...(e.organisations ?? [])].map((x) => `e:${x.toLowerCase()}`),
    ...(e.hashtags ?? []).map((h) => `h:${h.toLowerCase()}`),
    ...(e.repos ?? []).map((r) => `r:${r.owner}/${r.name}`.toLowerCase()),
  ]
}

/**
 * Stage 4: 1-3 categories per post against the library's categories (a person's own choices are
 * kept, removed ones never come back, and their choices train the local classifier), plus related
 * posts by meaning and shared entities.
 */
export const categorization: Stage<Analysis> = {
  name: 'categorization',
  index: 4,
  batchSize: 250,
  async prepare(ctx) {
    await ctx.runner.configure(await categoryConfig(ctx))
    const { input, loan } = await loadRelatedInput(ctx)
    if (loan) loans.set(ctx, loan)
    ctx.log.info(`related posts: ${input.ids.length} vectors, ${loan ? 'read from search\'s index' : 'copied for the stage'}`)
    await ctx.runner.relatedBuild(input)
  },
  // Nothing read here is written by this stage (a person's locks are read at the write), so the
  // runner starts it for the next batches while this one is written and the workers never wait.
  async analyse(ids, ctx) {
    await ctx.writable()
    const knowledge = knowledgeOf(ctx.db, ids)
    const ready = loadPipelinePosts(ctx.db, ids).filter((p) => knowledge.has(p.id))
    const readyIds = ready.map((p) => p.id)
    const vectors = embeddingsFor(ctx.db, LOCAL_EMBEDDING_MODEL, readyIds)
    // Both go out at once: each worker answers its share of one, then of the other.
    const [{ suggested, placed }, related] = await Promise.all([
      suggestWithThreads(readyIds, ready, ctx, { knowledge, vectors }), ctx.runner.related(readyIds, RELATED),
    ])
    // Near-duplicates by meaning: related posts whose vectors are near-identical (duplicates/meaning.ts).
    const sameMeaning = nearIdenticalPairs(ctx.db, LOCAL_EMBEDDING_MODEL, ready, related, vectors)
    return { readyIds, suggested, placed, related, sameMeaning }
  },
  async run(ids, ctx, analysed) {
    const { readyIds, suggested, placed, related, sameMeaning } = await (analysed ?? this.analyse!(ids, ctx))
    if (ctx.signal.aborted) return
    await ctx.commit(ids, this.index, () => {
      replacePipelineCategories(ctx.db, withinLocks(ctx.db, placed, suggested), ctx.now())
      setRelatedIds(ctx.db, readyIds.map((id, i) => ({ bookmarkId: id, relatedIds: related[i] })))
      replaceMeaningPairs(ctx.db, readyIds, sameMeaning)
    })
  },
  // Kept to the stage's end, not dropped batch by batch: batches are analysed ahead, and a thread's
  // remote answer must read the same whichever of its parts' batches comes first.
  async finish(ctx) {
    ctx.remoteCategories.clear()
    await ctx.runner.relatedClose()
    loans.get(ctx)?.giveBack()
    loans.delete(ctx)
  },
}

/** What stage 4 works out for a batch before writing it. */
interface Analysis {
  readyIds: number[]
  suggested: Map<number, Suggestion[]>
  placed: number[]
  related: number[][]
  sameMeaning: Array<[number, number]>
}

type CategoryContext = Pick<RunContext, 'db' | 'runner' | 'categories'> & Partial<Pick<RunContext, 'remoteCategories'>>

/**
 * The categories and a person's choices as the categoriser reads them: by meaning. Their texts are
 * encoded once (by the process's one model), then the runners let their engines go and start stage 4
 * from this configuration, vectors included, so nothing there encodes again.
 */
export async function categoryConfig(ctx: Pick<RunContext, 'db' | 'categories' | 'runner'>): Promise<Required<Pick<EngineConfig, 'categories' | 'examples' | 'categoryVectors'>>> {
  const bySlug = new Map(ctx.categories.map((c) => [c.slug, c.id]))
  const chosen = userCategoryExamples(ctx.db).filter((e) => bySlug.has(e.slug))
  const stored = embeddingsFor(ctx.db, LOCAL_EMBEDDING_MODEL, chosen.map((e) => e.bookmarkId))
  const examples: CategoryExample[] = chosen.map((e) => ({ categoryId: bySlug.get(e.slug)!, ...(stored.has(e.bookmarkId) ? { vector: stored.get(e.bookmarkId)! } : { text: e.text }) }))
  const categories = ctx.categories.map((c) => ({ id: c.id, slug: c.slug, name: c.name, description: c.description }))
  const encoded = await encodeCategories(categories, examples, (texts) => ctx.runner.encode([...texts]))
  await ctx.runner.release()
  return { categories, examples: encoded.examples, categoryVectors: encoded.vectors }
}

/**
 * Suggestions for `posts` (`ids`), a thread's parts taking the thread's categories as a whole, those
 * analysed earlier too (they agree); `placed` are the posts whose categories are replaced with them.
 */
export async function suggestWithThreads(ids: number[], posts: PipelinePost[], ctx: CategoryContext & Pick<RunContext, 'remoteCategories'>, read: SuggestRead = {}): Promise<{ suggested: Map<number, Suggestion[]>; placed: number[] }> {
  const [suggested, threads] = await Promise.all([suggestCategories(posts, ctx, read), threadSuggestions(ids, ctx)])
  for (const [id, picks] of threads) suggested.set(id, picks)
  return { suggested, placed: [...new Set([...ids, ...threads.keys()])] }
}

type SuggestRead = { knowledge?: Map<number, KnowledgeRecord>; vectors?: Map<number, Float32Array> }

/** Categories for analysed posts: a remote provider's when it gave them, else the local categoriser's (by meaning). */
export async function suggestCategories(posts: PipelinePost[], ctx: CategoryContext, read: SuggestRead = {}): Promise<Map<number, Suggestion[]>> {
  const ids = posts.map((p) => p.id)
  const knowledge = read.knowledge ?? knowledgeOf(ctx.db, ids)
  const vectors = read.vectors ?? embeddingsFor(ctx.db, LOCAL_EMBEDDING_MODEL, ids)
  const tags = new Map<number, string[]>()
  for (const t of tagsForBookmarks(ctx.db, ids)) tags.set(t.bookmarkId, [...(tags.get(t.bookmarkId) ?? []), t.name])
  const needLocal = posts.filter((p) => knowledge.has(p.id) && !ctx.remoteCategories?.has(p.id) && vectors.has(p.id))
  const local = await ctx.runner.categorize(needLocal.map((p) => ({
    id: p.id, post: toEnginePost(p), entities: parse(knowledge.get(p.id)!.entities) as Entities, tags: tags.get(p.id) ?? [], vector: vectors.get(p.id)!,
  })))
  const suggested = new Map(local.map((r) => [r.id, r.categories]))
  const bySlug = new Map(ctx.categories.map((c) => [c.slug, c.id]))
  for (const id of ids) {
    const remote = ctx.remoteCategories?.get(id)
    if (remote) suggested.set(id, remote.flatMap((c) => (bySlug.has(c.slug) ? [{ categoryId: bySlug.get(c.slug)!, confidence: c.confidence }] : [])))
  }
  return suggested
}


const knowledgeOf = (db: Db, ids: readonly number[]) => new Map(knowledgeForBookmarks(db, ids).map((k) => [k.bookmarkId, k]))

/** What the analysis may write: never a category a person removed, never over three with theirs. */
export function withinLocks(db: Db, ids: number[], suggested: Map<number, Suggestion[]>) {
  const locks = categoryLocks(db, ids)
  return ids.map((id) => {
    const lock = locks.get(id)
    const room = MAX_CATEGORIES - (lock?.user.size ?? 0)
    const picks = (suggested.get(id) ?? []).filter((c) => !lock?.rejected.has(c.categoryId) && !lock?.user.has(c.categoryId)).slice(0, Math.max(0, room))
    return { bookmarkId: id, picks }
  })
}

const PAGE = 2000

/** The rows search lent stage 4 (given back at its end, or by the job's launcher when the job ends early). */
const loans = new WeakMap<RunContext, Loan>()

/**
 * Every post's vector and entity keys, read a page at a time so the server keeps answering meanwhile.
 * Keys are numbered here and everything goes out as typed arrays: the keys as one list of numbers
 * instead of 100,000 lists of strings, the vectors as search's rows, lent (borrowRows), or else read
 * into the index's shared memory (it takes them over).
 */
export async function loadRelatedInput(ctx: Pick<RunContext, 'db' | 'vectors'>): Promise<{ input: ClusteredIndexInput; loan: Loan | null }> {
  const borrowed = await borrowRows(ctx)
  if (borrowed) {
    const { ids, dim, loan } = borrowed
    return { input: { ids, dim, lent: loan.lent, ...await readKeys(ctx.db, ids) }, loan }
  }
  const { ids, dim, rows } = await readVectors(ctx.db)
  return { input: { ids, dim, rows, ...await readKeys(ctx.db, ids) }, loan: null }
}

/**
 * Search's rows of every post with a sentence vector, so the server holds the vectors once. When its
 * index has not read them all yet (a server just started, or no search since), this waits while it
 * does, a slice per turn of the event loop: reading them here instead would cost the same reads, and
 * search keeps them after. Null, and stage 4 then reads its own copy, only where the pipeline runs
 * without search (tests, tools) or when search's index lacks one of the posts (a vector of another size).
 */
async function borrowRows(ctx: Pick<RunContext, 'db' | 'vectors'>): Promise<{ ids: Int32Array; dim: number; loan: Loan } | null> {
  const index = await ctx.vectors?.(LOCAL_EMBEDDING_MODEL)
  if (!index) return null
  const ids = embeddingIds(ctx.db, LOCAL_EMBEDDING_MODEL)
  const loan = index.lend(ids)
  if (ids.length === 0 || loan.lent.rows.some((r) => r < 0)) {
    loan.giveBack()
    return null
  }
  return { ids, dim: loan.lent.space.dim, loan }
}

/** Every stored vector, read into a copy for the index (in id order). */
async function readVectors(db: Db): Promise<{ ids: Int32Array; dim: number; rows: ClusteredRows | undefined }> {
  const total = countEmbeddings(db, LOCAL_EMBEDDING_MODEL)
  const ids: number[] = []
  let dim = 0
  // Straight into the index's shared memory: the workers read this one copy.
  let rows: ClusteredRows | undefined
  for (let after = 0; ;) {
    const last = eachEmbedding(db, LOCAL_EMBEDDING_MODEL, after, PAGE, (id, vector) => {
      if (!rows) {
        dim = vector.length
        rows = rowsFor(total, dim)
      }
      if (vector.length !== dim || ids.length >= total) return
      writeRow(rows, ids.length, vector)
      ids.push(id)
    })
    if (last === after) break
    after = last
    await yieldToLoop()
  }
  return { ids: Int32Array.from(ids), dim, rows }
}

/** The entity keys of post ids[i] (ascending ids), numbered. */
async function readKeys(db: Db, ids: Int32Array): Promise<{ keyOffsets: Int32Array; keyIds: Int32Array }> {
  // Keys of post ids[i] at keyIds[keyOffsets[i] .. keyOffsets[i+1]); both lists are in id order.
  const numbered = new Map<string, number>()
  const keyOffsets = new Int32Array(ids.length + 1)
  let keyIds = new Int32Array(ids.length * 8)
  let i = 0
  /** Posts before `id` without a knowledge row have no keys. */
  const skipTo = (id: number) => {
    for (; i < ids.length && ids[i] < id; i++) keyOffsets[i + 1] = keyOffsets[i]
  }
  for (let after = 0; ;) {
    const page = relatedKeysPage(db, after, PAGE)
    if (page.length === 0) break
    for (const r of page) {
      skipTo(r.id)
      if (i >= ids.length || ids[i] !== r.id) continue
      let at = keyOffsets[i]
      for (const k of relatedKeys(parse(r.entities), r.tags ? r.tags.split('\u001f') : [])) {
        let n = numbered.get(k)
        if (n === undefined) numbered.set(k, (n = numbered.size))
        if (at === keyIds.length) {
          const grown = new Int32Array(keyIds.length * 2)
          grown.set(keyIds)
          keyIds = grown
        }
        keyIds[at++] = n
      }
      keyOffsets[++i] = at
    }
    after = page[page.length - 1].id
    await yieldToLoop()
  }
  skipTo(Infinity)
  return { keyOffsets, keyIds: keyIds.slice(0, keyOffsets[ids.length]) }
}

const parse = (v: string | null): Partial<Entities> | null => {
  if (!v) return null
  try {
    return JSON.parse(v) as Partial<Entities>
  } catch {
    return null
  }
}

// A thread's parts take the thread's categories (this stage and the re-scorer).

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
