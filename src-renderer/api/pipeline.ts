import { z } from 'zod'
import { zPipelineJob, zPipelineJobError, zStartPipelineResult } from '../../src-shared/schemas/pipeline.ts'
import { get, post } from './client.ts'

export const PIPELINE_STREAM_URL = '/api/categorize'

export const startPipeline = (body: { force?: boolean; bookmarkIds?: number[] } = {}) =>
  post('/api/categorize', body, { schema: zStartPipelineResult })
/** The current or last job; null when the pipeline never ran. */
export const fetchJob = () =>
  get('/api/categorize', { schema: z.union([zPipelineJob, z.object({ job: zPipelineJob.nullable(), next: z.number().int().optional() })]) }).then((r) =>
    r && 'job' in r ? r.job : (r as z.infer<typeof zPipelineJob> | null))
/** The current or last job, and how many runs wait to start after it. */
export const fetchPipelineState = () =>
  get('/api/categorize', { schema: z.object({ job: zPipelineJob.nullable(), next: z.number().int().default(0) }) })
export const cancelPipeline = () => post('/api/categorize/cancel')
export const fetchJobErrors = (jobId: string) =>
  get(`/api/categorize/${encodeURIComponent(jobId)}/errors`, { schema: z.object({ errors: z.array(zPipelineJobError) }).loose() })
export const retryErrors = (body: { jobId?: string; bookmarkIds?: number[] } = {}) =>
  post('/api/categorize/retry', body, { schema: zStartPipelineResult.partial().loose() })
