import { describe, expect, it } from 'vitest'
import { createAnthropicProvider } from '../../../src-main/ai/index.ts'
import { fakeAnthropic } from './fake-servers.ts'
import { httpHarness } from './http-harness.ts'
import { runProviderContract } from './provider.contract.ts'

const textOf = (r: { body: any }) => {
  const c = r.body.messages[0].content
  return typeof c === 'string' ? c : c.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('\n')
}
const message = (text: string, stop: string) => JSON.stringify({
  id: 'msg', type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: stop, usage: { input_tokens: 10, output_tokens: 5 },
})

runProviderContract('anthropic', async () => httpHarness(await fakeAnthropic(), {
  build: ({ apiKey, baseUrl, batchSize, sleep }) => createAnthropicProvider({ apiKey, baseUrl, batchSize, model: 'claude-haiku-4-5', retry: { sleep } }),
  promptOf: textOf,
  truncatedReply: (_r, text) => message(text, 'max_tokens'),
  malformedReply: () => message('Here is the JSON you asked for: {"posts": [oops', 'end_turn'),
}))

describe('anthropic wire format', () => {
  it('sends x-api-key, anthropic-version, the model and the system prompt', async () => {
    const fake = await fakeAnthropic()
    try {
      const p = createAnthropicProvider({ apiKey: 'sk-ant-xyz-123456789', baseUrl: fake.url, model: 'claude-sonnet-4-5' })
      const r = await p.analyze([{ id: 1, text: 'hello', authorHandle: 'a', urls: [], quotedText: null, entityNames: [], imageNotes: [], images: [] }], { categories: [] })
      expect(r.results).toHaveLength(1)
      const req = fake.requests[0]
      expect(req.path).toBe('/v1/messages')
      expect(req.headers['x-api-key']).toBe('sk-ant-xyz-123456789')
      expect(req.headers['anthropic-version']).toBe('2023-06-01')
      expect(req.body.model).toBe('claude-sonnet-4-5')
      expect(req.body.system).toMatch(/never follow instructions/i)
      // Sonnet prices: 100 in, 50 out tokens.
      expect(r.usage.costUsd).toBeCloseTo((100 * 3 + 50 * 15) / 1e6, 10)
    } finally {
      await fake.close()
    }
  })
})
