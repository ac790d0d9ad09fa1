import { setImmediate as nextTurn } from 'node:timers/promises'
import type { AnalyzeInput, PostAnalysis, SemanticResult } from '../../ai/index.ts'
import type { Entities } from '../../ai/local/index.ts'
import { LOCAL_EMBEDDING_MODEL } from '../../ai/index.ts'
import { loadPipelinePosts, writeEmbedding, writeKnowledge, type PipelinePost } from '../../store/index.ts'
import { imageTextOf, toEnginePost, type RunContext, type Stage } from '../context.ts'

/**
 * Stage 3: summary, tags (normalised into the shared vocabulary), sentiment, action, confidence,
 * OSS report and sentence vectors. The local models always run (they give the stored vectors and
 * the fallback); a remote provider's valid answers replace their text fields.
 */
interface Analysis {
  posts: PipelinePost[]
  ents: Map<number, Entities | null>
  byId: Map<number, SemanticResult>
  remote: Map<number, PostAnalysis>
  tagsById: Map<number, string[]>
  vectors: Map<number, { model: string; vector: Float32Array }> | null
}

export const semanticTagging: Stage<Analysis> = {
  name: 'semantic_tagging',
  index: 3,
  batchSize: 200,
  async analyse(ids, ctx) {
    await ctx.writable()
    const posts = loadPipelinePosts(ctx.db, ids)
    // A restart loses stage 1's in-memory output: recompute it (deterministic and cheap).
    const missing = posts.filter((p) => !ctx.entities.has(p.id))
    if (missing.length) for (const r of await ctx.runner.entities(missing.map(toEnginePost))) ctx.entities.set(r.id, { entities: r.entities })
    const ents = new Map(posts.map((p) => [p.id, ctx.entities.get(p.id)?.entities ?? null]))
    const local = await ctx.runner.semantic(posts.map((p) => ({ post: toEnginePost(p), entities: ents.get(p.id) ?? null })))
    const byId = new Map(local.map((r) => [r.id, r]))
    const remote = ctx.provider.name === 'local' ? new Map<number, PostAnalysis>() : await viaProvider(posts, ctx)
    const remoteTags = await ctx.runner.normalizeTags([...remote.values()].map((r) => r.tags))
    const tagsById = new Map([...remote.keys()].map((id, i) => [id, remoteTags[i]]))
    const vectors = ctx.provider.embed ? await remoteVectors(posts, ctx) : null
    return { posts, ents, byId, remote, tagsById, vectors }
  },
  async run(ids, ctx, analysed) {
    const analysis = await (analysed ?? this.analyse!(ids, ctx))
    // A part of the batch per transaction, a turn of the event loop between them: a 200-post commit
    // held the HTTP thread 12-15 ms (bench/load.ts, profiled), in the busy phase's worst seconds.
    for (let i = 0; i < ids.length && !ctx.signal.aborted; i += WRITE_SLICE) {
      if (i > 0) await nextTurn()
      const part = ids.slice(i, i + WRITE_SLICE)
      const inPart = new Set(part)
      await write(part, { ...analysis, posts: analysis.posts.filter((p) => inPart.has(p.id)) }, ctx)
    }
    if (ctx.signal.aborted) return
    for (const id of ids) ctx.entities.delete(id)
  },
}

/** Posts written per transaction. */
const WRITE_SLICE = 50

/** Writes the analysis of these posts and marks them done, in one transaction. */
function write(ids: number[], { posts, ents, byId, remote, tagsById, vectors }: Analysis, ctx: RunContext): Promise<void> {
  return ctx.commit(ids, semanticTagging.index, () => {
    const now = ctx.now()
    const rows = posts.flatMap((p) => {
      const l = byId.get(p.id)
      if (!l) return []
      const r = remote.get(p.id)
      const entities = ents.get(p.id) ?? null
      return [{
        bookmarkId: p.id,
        summary: r?.summary ?? l.summary,
        action: r?.action ?? l.action,
        sentiment: r?.sentiment ?? l.sentiment,
        confidence: r?.confidence ?? l.sentimentConfidence,
        ossReport: l.ossReport,
        entities,
        kind: entities?.kind ?? null,
        provider: r ? `${ctx.provider.name}:${ctx.provider.model}` : 'local',
        contentHash: p.contentHash,
        analyzedAt: now,
        tags: r && tagsById.get(p.id)?.length ? tagsById.get(p.id)! : l.tags,
      }]
    })
    writeKnowledge(ctx.db, rows)
    for (const p of posts) {
      const l = byId.get(p.id)
      if (!l) continue
      writeEmbedding(ctx.db, { bookmarkId: p.id, model: LOCAL_EMBEDDING_MODEL, vector: l.vector, contentHash: p.contentHash })
      const v = vectors?.get(p.id)
      if (v) writeEmbedding(ctx.db, { bookmarkId: p.id, model: v.model, vector: v.vector, contentHash: p.contentHash })
    }
  })
}

const toInput = (p: PipelinePost, ctx: RunContext): AnalyzeInput => {
  const e = ctx.entities.get(p.id)?.entities
  return {
    id: p.id,
    text: p.text,
    authorHandle: p.authorHandle,
    urls: p.urls.map((u) => u.expandedUrl || u.url),
    quotedText: p.quoted?.text ?? null,
    entityNames: e ? [...e.tools, ...e.products, ...e.companies, ...e.people, ...e.places, ...e.organisations, ...e.repos.map((r) => `${r.owner}/${r.name}`)] : [],
    imageNotes: imageTextOf(p) ? [imageTextOf(p)!] : [],
    // Images were described in vision_analysis; their text travels in imageNotes.
    images: [],
  }
}

async function viaProvider(posts: PipelinePost[], ctx: RunContext): Promise<Map<number, PostAnalysis>> {
  const out = new Map<number, PostAnalysis>()
  try {
    const r = await ctx.provider.analyze(posts.map((p) => toInput(p, ctx)), {
      categories: ctx.categories.map((c) => ({ slug: c.slug, name: c.name, description: c.description })),
      signal: ctx.signal,
    })
    ctx.addUsage(r.usage)
    for (const a of r.results) {
      out.set(a.id, a)
      if (a.categories?.length) ctx.remoteCategories.set(a.id, a.categories)
    }
    for (const f of r.failures) ctx.recordError(f.id, 'semantic_tagging', `${ctx.provider.name}: ${f.message}; analysed by the local models instead`, true)
  } catch (e) {
    if (ctx.signal.aborted) return out
    for (const p of posts) ctx.recordError(p.id, 'semantic_tagging', `${ctx.provider.name}: ${(e as Error).message}; analysed by the local models instead`, true)
  }
  return out
}

async function remoteVectors(posts: PipelinePost[], ctx: RunContext): Promise<Map<number, { model: string; vector: Float32Array }> | null> {
  try {
    const r = await ctx.provider.embed!(posts.map((p) => [p.text, p.quoted?.text ?? '', imageTextOf(p) ?? ''].join('\n').trim().slice(0, 8000) || ' '), ctx.signal)
    ctx.addUsage(r.usage)
    return new Map(posts.map((p, i) => [p.id, { model: r.model, vector: r.vectors[i] }]))
  } catch (e) {
    if (!ctx.signal.aborted) {
      for (const p of posts) ctx.recordError(p.id, 'semantic_tagging', `${ctx.provider.name} embeddings: ${(e as Error).message}; local vectors kept`, true)
    }
    return null
  }
}
