import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { PipelineEvent } from '../../src-shared/schemas/pipeline.ts'
import { categorizeRoutes } from '../../src-main/http/routes/categorize.ts'
import type { AppEnv } from '../../src-main/http/index.ts'
import type { Pipeline } from '../../src-main/pipeline/index.ts'

/** The stream route alone, over a stand-in pipeline: heartbeats while quiet, end after complete. */
describe('GET /categorize as an event stream', () => {
  it('sends the current state, heartbeat comments while quiet, and ends after complete', async () => {
    let emit: (ev: PipelineEvent) => void = () => {}
    let stopped = false
    const pipeline = {
      watch(on: (ev: PipelineEvent) => void) {
        emit = on
        return { initial: { stage: 'vision_analysis', progress: 30, current: 2, total: 10 } as PipelineEvent, live: true, stop: () => { stopped = true } }
      },
    } as unknown as Pipeline
    const app = new Hono<AppEnv>()
    app.use(async (c, next) => {
      c.set('user', { id: 1, name: 'v', email: 'v@example.com', role: 'viewer' })
      await next()
    })
    app.route('/categorize', categorizeRoutes({ pipeline, heartbeatMs: 20 }))
    const res = await app.request('/categorize', { headers: { accept: 'text/event-stream' } })
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    let sentComplete = false
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      text += decoder.decode(value)
      if (!sentComplete && text.includes(': heartbeat')) {
        sentComplete = true
        emit({ stage: 'categorization', progress: 100, current: 10, total: 10 })
        emit({ stage: 'complete', progress: 100, processed: 10, errors: 0 })
      }
    }
    const data = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)))
    expect(data).toEqual([
      { stage: 'vision_analysis', progress: 30, current: 2, total: 10 },
      { stage: 'categorization', progress: 100, current: 10, total: 10 },
      { stage: 'complete', progress: 100, processed: 10, errors: 0 },
    ])
    expect(text).toMatch(/^: heartbeat$/m)
    expect(stopped).toBe(true)
  })
})
