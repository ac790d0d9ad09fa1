import { Hono } from 'hono'
import { SSE_HEARTBEAT_MS, zRetryPipelineBody, zStartPipelineBody, type PipelineEvent } from '../../../src-shared/schemas/pipeline.ts'
import { z } from 'zod'
import type { Pipeline } from '../../pipeline/index.ts'
import type { AppEnv } from '../app-env.ts'
import { allow } from '../middleware/allow.ts'
import { streamEvents } from '../sse.ts'
import { jsonBody } from '../validate.ts'

const zCancelBody = z.object({ jobId: z.string().optional() }).strict()

/**
 * POST starts (member, admin); GET watches (every role: 'pipeline:read'). With Accept:
 * text/event-stream, GET streams `data: <event>` messages: the current state first, then each
 * progress event, `: heartbeat` comments while quiet, and the stream ends after `complete`.
 */
export const categorizeRoutes = ({ pipeline, heartbeatMs = SSE_HEARTBEAT_MS }: { pipeline: Pipeline; heartbeatMs?: number }) =>
  new Hono<AppEnv>()
    .post('/', allow('pipeline:run'), async (c) => {
      const body = await jsonBody(c, zStartPipelineBody)
      return c.json(await pipeline.start(body, c.get('user').id))
    })
    .get('/', allow('pipeline:read'), (c) => {
      if (!(c.req.header('accept') ?? '').includes('text/event-stream')) {
        return c.json({ job: pipeline.current(), next: pipeline.waiting() })
      }
      return streamEvents(c, (onEvent: (ev: PipelineEvent) => void) => pipeline.watch(onEvent), { heartbeatMs, isLast: (ev) => ev.stage === 'complete' })
    })
    .post('/cancel', allow('pipeline:run'), async (c) => {
      const { jobId } = await jsonBody(c, zCancelBody)
      return c.json({ job: pipeline.cancel(jobId) })
    })
    .post('/retry', allow('pipeline:run'), async (c) => {
      const body = await jsonBody(c, zRetryPipelineBody)
      return c.json(await pipeline.retry(body, c.get('user').id))
    })
    .get('/:jobId/errors', allow('pipeline:read'), (c) => c.json({ errors: pipeline.errors(c.req.param('jobId')) }))
    .get('/:jobId', allow('pipeline:read'), (c) => c.json({ job: pipeline.job(c.req.param('jobId')) }))
    .delete('/:jobId', allow('pipeline:run'), (c) => c.json({ job: pipeline.cancel(c.req.param('jobId')) }))
