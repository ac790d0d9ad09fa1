import { z } from 'zod'

export const AI_PROVIDERS = ['local', 'anthropic', 'openai', 'claude-cli'] as const
export type AiProviderName = (typeof AI_PROVIDERS)[number]
export const zAiProviderName = z.enum(AI_PROVIDERS)

/** How a provider authenticates, as reported by cli-status and test. */
export const AUTH_METHODS = ['local', 'api-key', 'claude-cli-oauth', 'none'] as const
export type AuthMethod = (typeof AUTH_METHODS)[number]

export const zProviderSettingsView = z.object({
  model: z.string().nullable(),
  baseUrl: z.string().nullable(),
  embeddingModel: z.string().nullable(),
  /** e.g. `sk-…abcd`; null when no key is stored. The key itself is never returned. */
  maskedKey: z.string().nullable(),
  hasKey: z.boolean(),
})
export type ProviderSettingsView = z.infer<typeof zProviderSettingsView>

/** GET /api/settings (admin). */
export const zSettingsView = z.object({
  provider: zAiProviderName,
  model: z.string().nullable(),
  baseUrl: z.string().nullable(),
  embeddingModel: z.string().nullable(),
  maskedKey: z.string().nullable(),
  hasKey: z.boolean(),
  providers: z.object({
    anthropic: zProviderSettingsView,
    openai: zProviderSettingsView,
    'claude-cli': zProviderSettingsView,
  }),
  /** Which credential store holds the keys: keychain, file or memory. */
  secretStore: z.string(),
  autoRunAfterImport: z.boolean(),
  allowPrivateMediaFetch: z.boolean(),
  /** Download images into the local media cache (thumbnails, OCR) during vision_analysis. */
  fetchMedia: z.boolean(),
  /** Filled by LAN sharing; `{enabled:false}` until it reports. */
  lanSharing: z.object({ enabled: z.boolean() }).catchall(z.unknown()),
})
export type SettingsView = z.infer<typeof zSettingsView>

const url = z.string().trim().url().refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
const name = z.string().trim().min(1).max(200)

/** PUT /api/settings (admin). `apiKey` is write-only: '' deletes the stored key for that provider. */
export const zSettingsUpdate = z.object({
  provider: zAiProviderName.optional(),
  /** Which provider's model/baseUrl/key the fields below apply to; defaults to `provider` or the active one. */
  target: z.enum(['anthropic', 'openai', 'claude-cli']).optional(),
  model: name.nullable().optional(),
  baseUrl: url.nullable().optional(),
  embeddingModel: name.nullable().optional(),
  apiKey: z.string().max(4096).optional(),
  autoRunAfterImport: z.boolean().optional(),
  allowPrivateMediaFetch: z.boolean().optional(),
  fetchMedia: z.boolean().optional(),
}).strict()
export type SettingsUpdate = z.infer<typeof zSettingsUpdate>

/** GET /api/settings/cli-status: exactly these three fields (spec section 2). */
export const zCliStatus = z.object({ authenticated: z.boolean(), method: z.string(), model: z.string() }).strict()
export type CliStatus = z.infer<typeof zCliStatus>

export const zProviderTestBody = z.object({ provider: zAiProviderName })
export type ProviderTestBody = z.infer<typeof zProviderTestBody>

/** POST /api/settings/test. `error` says what to fix when valid is false. */
export const zProviderTestResult = z.object({
  valid: z.boolean(),
  provider: zAiProviderName,
  method: z.string(),
  error: z.string().optional(),
})
export type ProviderTestResult = z.infer<typeof zProviderTestResult>
