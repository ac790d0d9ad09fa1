import { loadPipelinePosts, markJobItems, transaction } from '../../store/index.ts'
import { toEnginePost, type Stage } from '../context.ts'

/** Stage 1: hashtags, mentions, links, tools, people, places, organisations, repositories. */
export const entityExtraction: Stage = {
  name: 'entity_extraction',
  index: 1,
  batchSize: 500,
  async run(ids, ctx) {
    const posts = loadPipelinePosts(ctx.db, ids)
    const out = await ctx.runner.entities(posts.map(toEnginePost))
    for (const r of out) ctx.entities.set(r.id, r.entities)
    await ctx.writable()
    transaction(ctx.db, () => markJobItems(ctx.db, ctx.jobId, ids, 1))
  },
}
