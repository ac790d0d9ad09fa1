import { loadPipelinePosts } from '../../store/index.ts'
import type { Entities } from '../../ai/local/index.ts'
import { toEnginePost, type Stage } from '../context.ts'

/**
 * Stage 1: hashtags, mentions, links, tools, people, places, organisations, repositories, kept for
 * stage 3 (sentiment is decided there, where the post's sentence vector is).
 */
export const entityExtraction: Stage<Array<{ id: number; entities: Entities }>> = {
  name: 'entity_extraction',
  index: 1,
  batchSize: 250,
  // Started ahead, so the workers read the next batches while this one is written.
  analyse: async (ids, ctx) => ctx.runner.entities(loadPipelinePosts(ctx.db, ids).map(toEnginePost)),
  async run(ids, ctx, analysed) {
    const out = await (analysed ?? this.analyse!(ids, ctx))
    for (const r of out) ctx.entities.set(r.id, { entities: r.entities })
    await ctx.commit(ids, this.index)
  },
  // Stage 1's language models (compromise, wink-nlp) are not needed again: the workers let them go.
  async finish(ctx) {
    await ctx.runner.release()
  },
}
