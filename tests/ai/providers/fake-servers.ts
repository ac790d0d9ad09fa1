import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RecordedRequest { method: string; path: string; headers: IncomingMessage['headers']; body: any }

/** What the fake does with one request: a canned reply, or undefined to answer like a good model. */
export type Script = (req: RecordedRequest, n: number) => { status: number; body: string; headers?: Record<string, string> } | 'hang' | undefined

export interface FakeServer {
  url: string
  requests: RecordedRequest[]
  /** Replaces the behaviour (default: correct answers). */
  script: Script | null
  /** Requests left hanging by 'hang', released with a correct answer. */
  release(): void
  close(): Promise<void>
}

/** A post id list inside the <posts> JSON of a prompt. */
export function postsInPrompt(text: string): Array<{ id: number; text: string }> {
  const a = text.lastIndexOf('<posts>')
  const b = text.lastIndexOf('</posts>')
  return a >= 0 && b > a ? JSON.parse(text.slice(a + 7, b)) : []
}

export function goodAnalysis(posts: Array<{ id: number; text: string }>) {
  return {
    posts: posts.map((p) => ({
      id: p.id,
      summary: `Remote summary of post ${p.id}`,
      tags: ['Remote Tag', 'testing'],
      sentiment: 'positive',
      action: 'reference',
      confidence: 0.9,
      categories: [{ slug: 'programming', confidence: 0.8 }],
    })),
  }
}

function start(answer: (req: RecordedRequest) => { status: number; body: string; headers?: Record<string, string> }): Promise<FakeServer> {
  const requests: RecordedRequest[] = []
  const hanging: Array<() => void> = []
  const fake: FakeServer = {
    url: '',
    requests,
    script: null,
    release: () => hanging.splice(0).forEach((f) => f()),
    close: () => new Promise((r) => {
      fake.release()
      server.closeAllConnections()
      server.close(() => r())
    }),
  }
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = ''
    req.on('data', (d) => (raw += d))
    req.on('end', () => {
      let body: any = raw
      try {
        body = JSON.parse(raw)
      } catch { /* not JSON */ }
      const r: RecordedRequest = { method: req.method!, path: req.url!, headers: req.headers, body }
      requests.push(r)
      const send = (x: { status: number; body: string; headers?: Record<string, string> }) => {
        if (res.destroyed) return
        res.writeHead(x.status, { 'content-type': 'application/json', ...x.headers })
        res.end(x.body)
      }
      const scripted = fake.script?.(r, requests.length)
      if (scripted === 'hang') hanging.push(() => send(answer(r)))
      else send(scripted ?? answer(r))
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    resolve(fake)
  }))
}

/** Speaks the Anthropic Messages API (POST /v1/messages). */
export const fakeAnthropic = (): Promise<FakeServer> => start((r) => {
  if (r.path !== '/v1/messages') return { status: 404, body: JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'no route' } }) }
  if (!r.headers['x-api-key'] || r.headers['x-api-key'] === 'bad-key') {
    return { status: 401, body: JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }) }
  }
  const content = r.body.messages[0].content
  const text = typeof content === 'string' ? content : content.filter((b: any) => b.type === 'text').map((b: any) => b.text).join('\n')
  const posts = postsInPrompt(text)
  const reply = posts.length ? JSON.stringify(goodAnalysis(posts)) : 'A chart of sales.'
  return { status: 200, body: JSON.stringify({
    id: 'msg_1', type: 'message', role: 'assistant', model: r.body.model,
    content: [{ type: 'text', text: reply }], stop_reason: 'end_turn', usage: { input_tokens: 100, output_tokens: 50 },
  }) }
})

/** Speaks OpenAI chat completions and embeddings (POST /v1/chat/completions, /v1/embeddings). */
export const fakeOpenAi = (): Promise<FakeServer> => start((r) => {
  if (r.headers.authorization === 'Bearer bad-key') return { status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }) }
  if (r.path === '/v1/embeddings') {
    const input: string[] = r.body.input
    return { status: 200, body: JSON.stringify({
      object: 'list', model: r.body.model, usage: { prompt_tokens: input.length * 10, total_tokens: input.length * 10 },
      data: input.map((t, i) => ({ object: 'embedding', index: i, embedding: [t.length % 7, 1, 0.5, i] })),
    }) }
  }
  if (r.path !== '/v1/chat/completions') return { status: 404, body: JSON.stringify({ error: { message: 'not found' } }) }
  const user = r.body.messages.find((m: any) => m.role === 'user').content
  const text = typeof user === 'string' ? user : user.filter((p: any) => p.type === 'text').map((p: any) => p.text).join('\n')
  const posts = postsInPrompt(text)
  const reply = posts.length ? JSON.stringify(goodAnalysis(posts)) : 'OK'
  return { status: 200, body: JSON.stringify({
    id: 'chatcmpl-1', object: 'chat.completion', model: r.body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: reply }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 120, completion_tokens: 60, total_tokens: 180 },
  }) }
})
