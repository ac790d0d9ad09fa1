import { z } from 'zod'
import { ROLES } from '../roles.ts'

/** The port LAN sharing listens on unless the admin picks another (the loopback server uses 5717). */
export const DEFAULT_LAN_PORT = 5718

/** GET /api/lan and PUT /api/lan (admin). */
export const zLanStatus = z.object({
  /** The stored setting: share when Sheaf starts. */
  enabled: z.boolean(),
  /** The HTTPS listener is up right now (it can run for one session with `sheaf serve --lan`). */
  running: z.boolean(),
  port: z.number().int().min(0).max(65535),
  /** Names and addresses in the certificate and accepted by the Host check while sharing. */
  hosts: z.array(z.string()),
  /** `https://<address>:<port>` for each served address (first one = the one to share). */
  urls: z.array(z.string()),
  /** SHA-256 of the server certificate, colon-separated upper-case hex; null before the first start. */
  fingerprint: z.string().nullable(),
  /** SHA-256 of the Sheaf certificate authority, as above. */
  caFingerprint: z.string().nullable(),
  /** Why sharing could not start, if it failed. */
  error: z.string().nullable(),
})
export type LanStatus = z.infer<typeof zLanStatus>

export const zLanUpdate = z.object({
  enabled: z.boolean(),
  port: z.number().int().min(1024).max(65535).optional(),
}).strict()
export type LanUpdate = z.infer<typeof zLanUpdate>

/** POST /api/lan/join-link: a new invite for `role`, or a link for an `inviteCode` the admin already has. */
export const zJoinLinkBody = z.union([
  z.object({ role: z.enum(ROLES), expiresInDays: z.number().int().min(1).max(30).optional() }).strict(),
  z.object({ inviteCode: z.string().trim().min(1).max(200) }).strict(),
])
export type JoinLinkBody = z.infer<typeof zJoinLinkBody>

export const zJoinLink = z.object({
  url: z.string(),
  inviteCode: z.string(),
  role: z.enum(ROLES),
  /** The join URL as an SVG QR code (markup), and the same as a data: URL for an <img>. */
  qrSvg: z.string(),
  qrDataUrl: z.string(),
  fingerprint: z.string(),
})
export type JoinLink = z.infer<typeof zJoinLink>

/** The CA certificate download. */
export const CA_CERT_PATH = '/api/lan/ca.crt'
export const CA_CERT_CONTENT_TYPE = 'application/x-x509-ca-cert'
