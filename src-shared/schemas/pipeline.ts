import { z } from 'zod'

/** Stage values in the order the progress stream reports them (spec section 3). */
export const PIPELINE_STAGES = ['entity_extraction', 'vision_analysis', 'semantic_tagging', 'categorization'] as const
export type PipelineStage = (typeof PIPELINE_STAGES)[number]
export const STAGE_VALUES = [...PIPELINE_STAGES, 'complete'] as const
export type StageValue = (typeof STAGE_VALUES)[number]

/** Job statuses as stored and reported. `started` only appears in the start answer (spec). */
export const JOB_STATUSES = ['running', 'cancelling', 'cancelled', 'completed', 'failed'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

/** Heartbeat comment interval of the SSE stream. */
export const SSE_HEARTBEAT_MS = 15_000

export const zStartPipelineBody = z.object({
  bookmarkIds: z.array(z.number().int().positive()).max(100_000).optional(),
  /** Redo posts already analysed with the same content. */
  force: z.boolean().optional(),
}).strict()
export type StartPipelineBody = z.infer<typeof zStartPipelineBody>

/**
 * `started`: a new job began (with `totalBookmarks: 0` when every selected post is up to date; it
 * completes at once). `running`: a job already running covers what was asked; its id is returned and
 * no second job starts. `queued`: a job is running that does not cover the request (a forced run, or
 * other posts); the request starts as soon as that job ends. `jobId` and `totalBookmarks` are then the
 * running job's, and `message` says so in words.
 */
export const zStartPipelineResult = z.object({
  jobId: z.string(),
  status: z.enum(['started', 'running', 'queued']),
  totalBookmarks: z.number().int(),
  message: z.string().optional(),
})
export type StartPipelineResult = z.infer<typeof zStartPipelineResult>

export const zStageEvent = z.object({
  stage: z.enum(PIPELINE_STAGES),
  progress: z.number(),
  current: z.number().int(),
  total: z.number().int(),
})
export const zCompleteEvent = z.object({
  stage: z.literal('complete'),
  progress: z.literal(100),
  processed: z.number().int(),
  errors: z.number().int(),
})
/** One `data:` message of GET /api/categorize (text/event-stream). */
export const zPipelineEvent = z.union([zStageEvent, zCompleteEvent])
export type StageEvent = z.infer<typeof zStageEvent>
export type CompleteEvent = z.infer<typeof zCompleteEvent>
export type PipelineEvent = z.infer<typeof zPipelineEvent>

/** GET /api/categorize without the SSE Accept header: the current or last job. */
export const zPipelineJob = z.object({
  jobId: z.string(),
  status: z.enum(JOB_STATUSES),
  stage: z.enum(STAGE_VALUES),
  progress: z.number(),
  current: z.number().int(),
  total: z.number().int(),
  totalBookmarks: z.number().int(),
  processed: z.number().int(),
  errors: z.number().int(),
  force: z.boolean(),
  provider: z.string().nullable(),
  tokensIn: z.number().int(),
  tokensOut: z.number().int(),
  costUsd: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
})
export type PipelineJob = z.infer<typeof zPipelineJob>

export const zPipelineJobError = z.object({
  id: z.number().int(),
  bookmarkId: z.number().int().nullable(),
  stage: z.string(),
  message: z.string(),
  /** The remote provider failed for this post and the local models did the work instead. */
  fellBack: z.boolean(),
  createdAt: z.string(),
})
export type PipelineJobError = z.infer<typeof zPipelineJobError>

export const zRetryPipelineBody = z.object({
  /** The job whose failed posts to redo; the last job when absent. */
  jobId: z.string().optional(),
  /** Only these posts; every post with a recorded error when absent. */
  bookmarkIds: z.array(z.number().int().positive()).optional(),
}).strict()
export type RetryPipelineBody = z.infer<typeof zRetryPipelineBody>
