import { z } from 'zod'
import { AppError } from '../../../src-shared/errors.ts'
import { DESCRIBE_IMAGE_PROMPT } from '../prompts/analyze.ts'
import type { AiProvider, Usage } from '../types.ts'
import { batchAnalyze, type Complete } from './batch-analyze.ts'
import { RERANK_RETRY, rerankVia } from './rerank-call.ts'
import { costUsd, createLimiter, describeFailure, postJson, RemoteError, withRetry, type RemoteProviderOptions } from './remote-call.ts'

export const ANTHROPIC_DEFAULT_MODEL = 'claude-haiku-4-5'
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com'
export const ANTHROPIC_VERSION = '2023-06-01'

export interface AnthropicProviderOptions extends RemoteProviderOptions {
  apiKey: string
}

const zReply = z.object({
  content: z.array(z.object({ type: z.string(), text: z.string().optional() })),
  stop_reason: z.string().nullable().optional(),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).partial().optional(),
})

type Block = { type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }

/** Anthropic Messages API over fetch (x-api-key + anthropic-version). */
export function createAnthropicProvider(opts: AnthropicProviderOptions): AiProvider {
  if (!opts.apiKey) throw new AppError('VALIDATION_ERROR', 'No Anthropic API key is stored; add one in Settings.')
  const model = opts.model || ANTHROPIC_DEFAULT_MODEL
  const url = `${(opts.baseUrl || ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/messages`
  const limit = createLimiter(opts.concurrency ?? 2)
  const maxTokens = opts.maxTokens ?? 8192

  const call = async (system: string, content: Block[], maxOut: number, signal?: AbortSignal, retry = opts.retry) => {
    const raw = await withRetry((s) => postJson(url, {
      model,
      max_tokens: maxOut,
      system,
      messages: [{ role: 'user', content }],
    }, { 'x-api-key': opts.apiKey, 'anthropic-version': ANTHROPIC_VERSION }, s), { ...retry, signal })
    const r = zReply.safeParse(raw)
    if (!r.success) throw new RemoteError('the Messages API reply has an unexpected shape')
    const tokensIn = r.data.usage?.input_tokens ?? 0
    const tokensOut = r.data.usage?.output_tokens ?? 0
    const usage: Usage = { tokensIn, tokensOut, costUsd: costUsd(model, tokensIn, tokensOut) }
    const text = r.data.content.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('')
    return { text, truncated: r.data.stop_reason === 'max_tokens', usage }
  }

  const complete: Complete = ({ system, user, posts, signal }) => {
    const images: Block[] = posts.flatMap((p) => p.images.flatMap((img) => [
      { type: 'text' as const, text: `Image mediaId=${img.mediaId} of post ${p.id}:` },
      { type: 'image' as const, source: { type: 'base64' as const, media_type: img.mime, data: Buffer.from(img.data).toString('base64') } },
    ]))
    return call(system, [...images, { type: 'text', text: user }], maxTokens, signal)
  }

  return {
    name: 'anthropic',
    model,
    method: 'api-key',
    batchSize: opts.batchSize ?? 20,
    vision: true,
    analyze: (posts, ctx) => batchAnalyze(posts, ctx, { complete, batchSize: opts.batchSize ?? 20, limit }),
    rerank: (query, candidates, signal) =>
      rerankVia((system, user, maxOut, s) => call(system, [{ type: 'text', text: user }], maxOut, s, { ...RERANK_RETRY, ...opts.retry, attempts: RERANK_RETRY.attempts }), query, candidates, signal),
    async describeImage(image, signal) {
      const r = await limit(() => call(DESCRIBE_IMAGE_PROMPT, [
        { type: 'image', source: { type: 'base64', media_type: image.mime, data: Buffer.from(image.data).toString('base64') } },
        { type: 'text', text: image.altText ? `Alt text given by the poster (data): ${JSON.stringify(image.altText)}` : 'Describe the image.' },
      ], 300, signal))
      return { description: r.text.trim().slice(0, 1000), usage: r.usage }
    },
    async test(signal) {
      try {
        await call('Reply with the word OK.', [{ type: 'text', text: 'OK?' }], 5, signal)
      } catch (e) {
        throw describeFailure(e, 'Anthropic')
      }
      return { method: 'api-key', model }
    },
  }
}
