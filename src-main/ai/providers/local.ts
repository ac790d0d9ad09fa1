import { SENTIMENTS } from '../../../src-shared/schemas/bookmarks.ts'
import type { AiProvider, AnalyzeInput, PostAction, Sentiment } from '../types.ts'
import { NO_USAGE } from '../types.ts'
import { LOCAL_MODEL, type EnginePost } from './local-engine.ts'
import { createInProcessRunner, type LocalRunner } from './local-runner.ts'

export interface LocalProviderOptions {
  /** Defaults to an in-process runner; the app passes the pipeline's worker runner. */
  runner?: LocalRunner
}

export const toEnginePost = (p: AnalyzeInput): EnginePost => ({
  id: p.id,
  text: p.text,
  authorHandle: p.authorHandle,
  urls: p.urls.map((u) => ({ url: u, expandedUrl: u, displayUrl: null })),
  media: [],
  inReplyToPostId: null,
  quoted: p.quotedText ? { text: p.quotedText, authorHandle: '' } : null,
  imageText: p.imageNotes.length ? p.imageNotes.join('\n') : null,
})

/** The offline models: no network, no key, always available; also the fallback for remote failures. */
export function createLocalProvider(opts: LocalProviderOptions = {}): AiProvider {
  const runner = opts.runner ?? createInProcessRunner({ existingTags: [], categories: [], examples: [] })
  return {
    name: 'local',
    model: LOCAL_MODEL,
    method: 'local',
    batchSize: 500,
    vision: false,
    async analyze(posts, ctx) {
      if (ctx.signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' })
      const out = await runner.semantic(posts.map((p) => ({ post: toEnginePost(p) })))
      return {
        results: out.map((r) => ({
          id: r.id,
          summary: r.summary,
          tags: r.tags,
          sentiment: (SENTIMENTS as readonly string[]).includes(r.sentiment) ? (r.sentiment as Sentiment) : 'neutral',
          action: r.action as PostAction,
          confidence: r.sentimentConfidence,
        })),
        failures: [],
        usage: NO_USAGE,
      }
    },
    async test() {
      const sample: AnalyzeInput = {
        id: 1, text: 'Just released v2 of our open-source Rust library for fast JSON parsing: https://github.com/example/fastjson',
        authorHandle: 'sheaf', urls: ['https://github.com/example/fastjson'], quotedText: null, entityNames: [], imageNotes: [], images: [],
      }
      const r = await this.analyze([sample], { categories: [] })
      if (r.results.length !== 1 || !r.results[0].action || r.results[0].tags.length === 0) throw new Error('the local models produced no analysis')
      return { method: 'local', model: LOCAL_MODEL }
    },
  }
}
