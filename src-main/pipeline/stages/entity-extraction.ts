import { loadPipelinePosts } from '../../store/faces/pipeline.ts'
import { toEnginePost, type Stage } from '../context.ts'

/**
 * Stage 1: hashtags, mentions, links, tools, people, places, organisations, repositories, kept for
 * stage 3 (sentiment is decided there, where the post's sentence vector is).
 */
export const entityExtraction: Stage = {
  name: 'entity_extraction',
  index: 1,
  batchSize: 250,
  async run(ids, ctx) {
    const posts = loadPipelinePosts(ctx.db, ids)
    const out = await ctx.runner.entities(posts.map(toEnginePost))
    for (const r of out) ctx.entities.set(r.id, { entities: r.entities })
    await ctx.commit(ids, this.index)
  },
  // Stage 1's language models (compromise, wink-nlp) are not needed again: the workers let them go.
  async finish(ctx) {
    await ctx.runner.release()
  },
}
