import { z } from 'zod'
import { ROLES } from '../roles.ts'
import { zTokenIdentity } from './tokens.ts'

export const PASSWORD_MIN_LENGTH = 8
/** bcrypt ignores bytes past 72; longer passwords are refused rather than silently truncated. */
export const PASSWORD_MAX_BYTES = 72
export const INVITE_DEFAULT_TTL_DAYS = 7
export const INVITE_MAX_TTL_DAYS = 365

export const zRole = z.enum(ROLES)

export const zEmail = z
  .string({ error: 'email must be a string' })
  .trim()
  .toLowerCase()
  .max(254, 'email is too long')
  .pipe(z.email({ error: 'email must be a valid e-mail address' }))

export function utf8Length(s: string): number {
  let n = 0
  for (const ch of s) {
    const cp = ch.codePointAt(0)!
    n += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4
  }
  return n
}

export const zPassword = z
  .string({ error: 'password must be a string' })
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .refine((s) => utf8Length(s) <= PASSWORD_MAX_BYTES, {
    error: `password must be at most ${PASSWORD_MAX_BYTES} bytes (bcrypt's limit)`,
  })

export const zName = z.string({ error: 'name must be a string' }).trim().min(1, 'name is required').max(100)

export const zUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: zRole,
})
export type User = z.infer<typeof zUser>

export const zLoginBody = z.object({
  email: z.string({ error: 'email must be a string' }).trim().toLowerCase().min(1, 'email is required'),
  password: z.string({ error: 'password must be a string' }).min(1, 'password is required'),
})
export type LoginBody = z.infer<typeof zLoginBody>

export const zRegisterBody = z.object({
  name: zName,
  email: zEmail,
  password: zPassword,
  inviteCode: z.string({ error: 'inviteCode must be a string' }).trim().min(1, 'inviteCode is required'),
})
export type RegisterBody = z.infer<typeof zRegisterBody>

export const zSetupBody = z.object({ name: zName, email: zEmail, password: zPassword })
export type SetupBody = z.infer<typeof zSetupBody>

export const zAuthResponse = z.object({ user: zUser })
export const zMeResponse = z.object({
  user: zUser,
  /** When the session token expires (ISO 8601 UTC); null for a personal API token, which does not. */
  expiresAt: z.string().nullable(),
  /** The personal API token the request was made with, if any. */
  token: zTokenIdentity.optional(),
})
/** GET /api/auth/session: the same, or no user when the request has no valid session. */
export const zSessionStatus = zMeResponse.extend({ user: zUser.nullable() })

export const zSetupStatus = z.object({
  /** True while no user exists; the setup form is then offered to loopback clients only. */
  needsSetup: z.boolean(),
  /** Whether this request came from the machine itself (the only place setup is accepted). */
  local: z.boolean(),
})

export const zCreateInviteBody = z.object({
  role: zRole,
  /** Days until the code expires; default 7. */
  expiresInDays: z.number().int().min(1).max(INVITE_MAX_TTL_DAYS).optional(),
})
export type CreateInviteBody = z.infer<typeof zCreateInviteBody>

export const zInviteCreated = z.object({
  inviteCode: z.string(),
  id: z.number().int(),
  role: zRole,
  expiresAt: z.string(),
})

export const zInviteStatus = z.enum(['active', 'used', 'expired', 'revoked'])
export const zInvite = z.object({
  id: z.number().int(),
  /** The first characters of the code, to recognise it; the code itself is stored only hashed. */
  hint: z.string(),
  role: zRole,
  status: zInviteStatus,
  createdAt: z.string(),
  expiresAt: z.string(),
  createdBy: z.number().int().nullable(),
  usedAt: z.string().nullable(),
  usedBy: z.number().int().nullable(),
})
export type Invite = z.infer<typeof zInvite>

export const zUpdateUserBody = z.object({ role: zRole })
