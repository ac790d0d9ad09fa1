import { z } from 'zod'
import { AppError } from '../../../src-shared/errors.ts'
import { DESCRIBE_IMAGE_PROMPT } from '../prompts/analyze.ts'
import type { AiProvider, Usage } from '../types.ts'
import { batchAnalyze, type Complete } from './batch-analyze.ts'
import { RERANK_RETRY, rerankVia } from './rerank-call.ts'
import { costUsd, createLimiter, describeFailure, postJson, RemoteError, withRetry, type RemoteProviderOptions } from './remote-call.ts'

export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini'
export const OPENAI_DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small'
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1'

export interface OpenAiProviderOptions extends RemoteProviderOptions {
  /** Optional: local servers (Ollama, LM Studio, llama.cpp) often need none. */
  apiKey?: string | null
  /** null turns embeddings off (the local sentence vectors are used). */
  embeddingModel?: string | null
}

const zChat = z.object({
  choices: z.array(z.object({
    message: z.object({ content: z.string().nullable().optional() }),
    finish_reason: z.string().nullable().optional(),
  })).min(1),
  usage: z.object({ prompt_tokens: z.number(), completion_tokens: z.number() }).partial().nullable().optional(),
})
const zEmbeddings = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int() })),
  usage: z.object({ prompt_tokens: z.number() }).partial().nullable().optional(),
})

/** Models that accept images, by name; others get the post text (with OCR and alt text) only. */
const VISION_MODEL = /gpt-4o|gpt-4\.1|gpt-5|vision|llava|-vl|gemma-?3|pixtral|claude/i

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } }

/** Any OpenAI-compatible endpoint: /chat/completions with JSON output and /embeddings. */
export function createOpenAiProvider(opts: OpenAiProviderOptions): AiProvider {
  const model = opts.model || OPENAI_DEFAULT_MODEL
  const base = (opts.baseUrl || OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '')
  // "http://host:11434" and "http://host:11434/v1" both work.
  const root = /\/v\d+$/.test(base) ? base : `${base}/v1`
  const headers: Record<string, string> = opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}
  if (!opts.apiKey && root.startsWith(OPENAI_DEFAULT_BASE_URL)) {
    throw new AppError('VALIDATION_ERROR', 'No OpenAI API key is stored; add one in Settings (or point the base URL at a local server).')
  }
  const limit = createLimiter(opts.concurrency ?? 2)
  const maxTokens = opts.maxTokens ?? 8192
  const vision = VISION_MODEL.test(model)
  const embeddingModel = opts.embeddingModel === undefined ? OPENAI_DEFAULT_EMBEDDING_MODEL : opts.embeddingModel

  const chat = async (system: string, content: string | Part[], maxOut: number, json: boolean, signal?: AbortSignal, retry = opts.retry) => {
    const raw = await withRetry((s) => postJson(`${root}/chat/completions`, {
      model,
      max_tokens: maxOut,
      messages: [{ role: 'system', content: system }, { role: 'user', content }],
      ...(json ? { response_format: { type: 'json_object' } } : {}),
    }, headers, s), { ...retry, signal })
    const r = zChat.safeParse(raw)
    if (!r.success) throw new RemoteError('the chat completions reply has an unexpected shape')
    const tokensIn = r.data.usage?.prompt_tokens ?? 0
    const tokensOut = r.data.usage?.completion_tokens ?? 0
    const usage: Usage = { tokensIn, tokensOut, costUsd: costUsd(model, tokensIn, tokensOut) }
    const c = r.data.choices[0]
    return { text: c.message.content ?? '', truncated: c.finish_reason === 'length', usage }
  }

  const dataUrl = (mime: string, data: Uint8Array) => `data:${mime};base64,${Buffer.from(data).toString('base64')}`

  const complete: Complete = ({ system, user, posts, signal }) => {
    const images: Part[] = vision
      ? posts.flatMap((p) => p.images.flatMap((img) => [
        { type: 'text' as const, text: `Image mediaId=${img.mediaId} of post ${p.id}:` },
        { type: 'image_url' as const, image_url: { url: dataUrl(img.mime, img.data) } },
      ]))
      : []
    return chat(system, images.length ? [...images, { type: 'text', text: user }] : user, maxTokens, true, signal)
  }

  const provider: AiProvider = {
    name: 'openai',
    model,
    method: 'api-key',
    batchSize: opts.batchSize ?? 20,
    vision,
    analyze: (posts, ctx) => batchAnalyze(posts, ctx, { complete, batchSize: opts.batchSize ?? 20, limit }),
    rerank: (query, candidates, signal) =>
      rerankVia((system, user, maxOut, s) => chat(system, user, maxOut, true, s, { ...RERANK_RETRY, ...opts.retry, attempts: RERANK_RETRY.attempts }), query, candidates, signal),
    async test(signal) {
      try {
        await chat('Reply with the word OK.', 'OK?', 5, false, signal)
      } catch (e) {
        throw describeFailure(e, 'The OpenAI-compatible endpoint')
      }
      return { method: 'api-key', model }
    },
  }
  if (embeddingModel) {
    Object.assign(provider, { embeddingModel })
    provider.embed = async (texts, signal) => {
      const raw = await limit(() => withRetry((s) => postJson(`${root}/embeddings`, { model: embeddingModel, input: texts }, headers, s), { ...opts.retry, signal }))
      const r = zEmbeddings.safeParse(raw)
      if (!r.success || r.data.data.length !== texts.length) throw new RemoteError('the embeddings reply has an unexpected shape')
      const vectors = new Array<Float32Array>(texts.length)
      for (const d of r.data.data) vectors[d.index] = Float32Array.from(d.embedding)
      if (vectors.some((v) => !v)) throw new RemoteError('the embeddings reply misses some inputs')
      const tokensIn = r.data.usage?.prompt_tokens ?? 0
      return { vectors, model: embeddingModel, usage: { tokensIn, tokensOut: 0, costUsd: costUsd(embeddingModel, tokensIn, 0) } }
    }
  }
  if (vision) {
    provider.describeImage = async (image, signal) => {
      const r = await limit(() => chat(DESCRIBE_IMAGE_PROMPT, [
        { type: 'image_url', image_url: { url: dataUrl(image.mime, image.data) } },
        { type: 'text', text: image.altText ? `Alt text given by the poster (data): ${JSON.stringify(image.altText)}` : 'Describe the image.' },
      ], 300, false, signal))
      return { description: r.text.trim().slice(0, 1000), usage: r.usage }
    }
  }
  return provider
}
