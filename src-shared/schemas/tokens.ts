import { z } from 'zod'

/** Every personal API token starts with this, so a leaked one is recognisable (and scanners can find it). */
export const API_TOKEN_PREFIX = 'sheaf_'

export const zCreateTokenBody = z.object({
  name: z.string({ error: 'name must be a string' }).trim().min(1, 'name is required: say what the token is for').max(100, 'name is at most 100 characters'),
  /** A read-only token may read and search but never change anything. */
  readOnly: z.boolean({ error: 'readOnly must be true or false' }).default(false),
})
export type CreateTokenBody = z.infer<typeof zCreateTokenBody>

export const zApiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The first characters of the secret, to recognise it; the secret itself is stored only hashed. */
  hint: z.string(),
  readOnly: z.boolean(),
  userId: z.number().int(),
  createdAt: z.string(),
  /** Roughly when it was last used (updated at most once a minute), or null. */
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
})
export type ApiToken = z.infer<typeof zApiToken>

export const zTokenList = z.object({ tokens: z.array(zApiToken) })

/** POST /api/tokens: the secret, shown this once. */
export const zTokenCreated = z.object({ token: zApiToken, secret: z.string() })
export type TokenCreated = z.infer<typeof zTokenCreated>

/** The token a request was made with (GET /api/auth/me). */
export const zTokenIdentity = zApiToken.pick({ id: true, name: true, readOnly: true })
export type TokenIdentity = z.infer<typeof zTokenIdentity>
