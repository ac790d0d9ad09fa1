import type { AiProvider } from '../../../src-main/ai/index.ts'
import type { FakeServer, RecordedRequest } from './fake-servers.ts'
import type { Harness, Mode } from './provider.contract.ts'

const RETRY_AFTER_S = 2

/** Steers an HTTP fake through the contract's modes; `wire` knows the provider's reply format. */
export function httpHarness(fake: FakeServer, opts: {
  build(o: { apiKey: string; baseUrl: string; batchSize?: number; sleep: (ms: number) => Promise<void> }): AiProvider
  promptOf(r: RecordedRequest): string
  /** A reply whose text is `text`, flagged as cut off at the output limit. */
  truncatedReply(r: RecordedRequest, text: string): string
  malformedReply(r: RecordedRequest): string
}): Harness {
  let mode: Mode = 'ok'
  let from = 0
  fake.script = (r, n) => {
    const k = n - from
    if (mode === 'hang') return 'hang'
    if (mode === 'rate-limit-once' && k === 1) {
      return { status: 429, headers: { 'retry-after': String(RETRY_AFTER_S) }, body: JSON.stringify({ error: { type: 'rate_limit_error', message: 'slow down' } }) }
    }
    if (mode === 'server-error-once' && k === 1) return { status: 500, body: JSON.stringify({ error: { message: 'internal' } }) }
    if (mode === 'malformed') return { status: 200, body: opts.malformedReply(r) }
    if (mode === 'truncated-once' && k === 1) return { status: 200, body: opts.truncatedReply(r, '{"posts":[{"id":11,"summary":"cut') }
    return undefined
  }
  return {
    provider: ({ delays, batchSize }) => opts.build({
      apiKey: mode === 'bad-auth' ? 'bad-key' : 'sk-test-1234567890abcd',
      baseUrl: fake.url,
      batchSize,
      sleep: async (ms) => { delays.push(ms) },
    }),
    setMode(m) {
      mode = m
      from = fake.requests.length
    },
    calls: () => fake.requests.length - from,
    prompts: () => fake.requests.map(opts.promptOf),
    retryAfterMs: RETRY_AFTER_S * 1000,
    close: () => fake.close(),
  }
}
