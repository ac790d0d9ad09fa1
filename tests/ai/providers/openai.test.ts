import { describe, expect, it } from 'vitest'
import { createOpenAiProvider } from '../../../src-main/ai/index.ts'
import { fakeOpenAi } from './fake-servers.ts'
import { httpHarness } from './http-harness.ts'
import { runProviderContract } from './provider.contract.ts'

const completion = (text: string, finish: string) => JSON.stringify({
  id: 'c', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finish }],
  usage: { prompt_tokens: 10, completion_tokens: 5 },
})

runProviderContract('openai-compatible', async () => httpHarness(await fakeOpenAi(), {
  build: ({ apiKey, baseUrl, batchSize, sleep }) => createOpenAiProvider({ apiKey, baseUrl, batchSize, model: 'gpt-4o-mini', retry: { sleep } }),
  promptOf: (r) => (r.body.messages ? r.body.messages.map((m: any) => (typeof m.content === 'string' ? m.content : '')).join('\n') : ''),
  truncatedReply: (_r, text) => completion(text, 'length'),
  malformedReply: () => completion('{"posts": [oops', 'stop'),
}))

describe('openai-compatible wire format', () => {
  it('asks for JSON output with a bearer key, and embeds through /v1/embeddings', async () => {
    const fake = await fakeOpenAi()
    try {
      const p = createOpenAiProvider({ apiKey: 'sk-proj-abcdef123456', baseUrl: `${fake.url}/v1`, model: 'llama3.1', embeddingModel: 'nomic-embed-text' })
      const r = await p.analyze([{ id: 7, text: 'hi', authorHandle: 'a', urls: [], quotedText: null, entityNames: [], imageNotes: [], images: [] }], { categories: [] })
      expect(r.results.map((x) => x.id)).toEqual([7])
      const chat = fake.requests[0]
      expect(chat.path).toBe('/v1/chat/completions')
      expect(chat.headers.authorization).toBe('Bearer sk-proj-abcdef123456')
      expect(chat.body.response_format).toEqual({ type: 'json_object' })
      expect(chat.body.model).toBe('llama3.1')
      const e = await p.embed!(['one', 'three'])
      expect(e.model).toBe('nomic-embed-text')
      expect(e.vectors).toHaveLength(2)
      expect([...e.vectors[1]]).toEqual([5, 1, 0.5, 1])
      expect(fake.requests[1].path).toBe('/v1/embeddings')
    } finally {
      await fake.close()
    }
  })

  it('needs no key for a local server (base URL without /v1)', async () => {
    const fake = await fakeOpenAi()
    try {
      const p = createOpenAiProvider({ baseUrl: fake.url, model: 'qwen2.5' })
      await p.test()
      expect(fake.requests[0].path).toBe('/v1/chat/completions')
      expect(fake.requests[0].headers.authorization).toBeUndefined()
    } finally {
      await fake.close()
    }
  })
})
