import { join } from 'node:path'
import type { SecretStorePreference } from '../secrets/index.ts'
import { defaultDataDir } from './paths.ts'

export interface RateLimitRule {
  limit: number
  windowMs: number
}

export interface Config {
  dataDir: string
  dbFile: string
  host: string
  port: number
  secretStore: SecretStorePreference
  rateLimits: { login: RateLimitRule; register: RateLimitRule; api: RateLimitRule; token: RateLimitRule }
  /** Largest JSON body accepted by ordinary API routes. */
  bodyLimitBytes: number
  /** Largest file accepted by POST /api/import. */
  importLimitBytes: number
  bootstrapAdmin: { email: string; password: string; name: string } | null
  /** Extra host names (besides localhost and loopback) the Host check accepts, e.g. LAN names. */
  allowedHosts: string[]
  /** Folder holding the built UI, or null to serve the API only. */
  uiDir: string | null
  /** Time-outs for slow or stalled clients (headers, a pause in a body, a whole request). */
  connections: { headersTimeoutMs: number; bodyTimeoutMs: number; requestTimeoutMs: number }
  /** Fetch media from private/loopback addresses (off by default; tests use it for a loopback media server). */
  allowPrivateMediaFetch: boolean
  /** The Claude Code CLI to run (SHEAF_CLAUDE_PATH), or null for `claude` on PATH. */
  claudePath: string | null
}

export const DEFAULT_PORT = 5717
export const DEFAULT_RATE_LIMITS = {
  login: { limit: 5, windowMs: 60_000 },
  register: { limit: 3, windowMs: 3_600_000 },
  api: { limit: 60, windowMs: 60_000 },
  token: { limit: 60, windowMs: 60_000 },
} satisfies Config['rateLimits']

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 }

/** "5/1m", "3/1h", "60/60s" → a rule; throws a message naming the variable when malformed. */
export function parseRateLimit(name: string, value: string): RateLimitRule {
  const m = /^(\d+)\s*\/\s*(\d*)\s*([smh])$/.exec(value.trim())
  if (!m) throw new Error(`${name} must look like 5/1m, 3/1h or 100/30s (got "${value}")`)
  return { limit: Number(m[1]), windowMs: Number(m[2] || 1) * UNITS[m[3]] }
}

/** A duration in milliseconds from the environment; throws a message naming the variable when malformed. */
function millis(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of milliseconds${min > 0 ? ' above 0' : ' (0 = no limit)'} (got "${raw}")`)
  return n
}

export interface ConfigFlags {
  dataDir?: string
  host?: string
  port?: number
}

/**
 * `sheaf mcp`, the client side: where Sheaf answers without --url (SHEAF_URL, else this machine on
 * SHEAF_PORT or 5717) and the personal API token (SHEAF_TOKEN only, so it never shows in a process list).
 */
export function resolveMcpClientConfig(env: NodeJS.ProcessEnv = process.env): { url: string; token: string | null } {
  return { url: env.SHEAF_URL ?? `http://127.0.0.1:${env.SHEAF_PORT || DEFAULT_PORT}`, token: env.SHEAF_TOKEN?.trim() || null }
}

/** Flags > environment (SHEAF_*) > defaults. Settings stored in the data dir apply later, at run time. */
export function resolveConfig(flags: ConfigFlags = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = flags.dataDir ?? env.SHEAF_DATA_DIR ?? defaultDataDir(env)
  const port = flags.port ?? (env.SHEAF_PORT ? Number(env.SHEAF_PORT) : DEFAULT_PORT)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port must be 0-65535 (got ${port})`)
  const secretStore = (env.SHEAF_SECRET_STORE ?? 'auto') as SecretStorePreference
  if (!['auto', 'keychain', 'file'].includes(secretStore)) {
    throw new Error(`SHEAF_SECRET_STORE must be keychain or file (got "${secretStore}")`)
  }
  const rule = (key: keyof Config['rateLimits'], name: string) =>
    env[name] ? parseRateLimit(name, env[name]!) : DEFAULT_RATE_LIMITS[key]
  const admin = env.SHEAF_ADMIN_EMAIL && env.SHEAF_ADMIN_PASSWORD
    ? { email: env.SHEAF_ADMIN_EMAIL, password: env.SHEAF_ADMIN_PASSWORD, name: env.SHEAF_ADMIN_NAME || 'Admin' }
    : null
  return {
    dataDir,
    dbFile: join(dataDir, 'sheaf.db'),
    host: flags.host ?? env.SHEAF_HOST ?? '127.0.0.1',
    port,
    secretStore,
    rateLimits: {
      login: rule('login', 'SHEAF_RATE_LIMIT_LOGIN'),
      register: rule('register', 'SHEAF_RATE_LIMIT_REGISTER'),
      api: rule('api', 'SHEAF_RATE_LIMIT_API'),
      token: rule('token', 'SHEAF_RATE_LIMIT_TOKEN'),
    },
    bodyLimitBytes: Number(env.SHEAF_BODY_LIMIT_BYTES ?? 1024 * 1024),
    importLimitBytes: Number(env.SHEAF_IMPORT_LIMIT_BYTES ?? 512 * 1024 * 1024),
    bootstrapAdmin: admin,
    allowedHosts: (env.SHEAF_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    uiDir: env.SHEAF_UI_DIR ?? null,
    allowPrivateMediaFetch: env.SHEAF_ALLOW_PRIVATE_MEDIA_FETCH === '1',
    claudePath: env.SHEAF_CLAUDE_PATH || null,
    connections: {
      headersTimeoutMs: millis(env, 'SHEAF_HEADERS_TIMEOUT_MS', 10_000, 1),
      bodyTimeoutMs: millis(env, 'SHEAF_BODY_TIMEOUT_MS', 15_000, 1),
      requestTimeoutMs: millis(env, 'SHEAF_REQUEST_TIMEOUT_MS', 600_000, 0),
    },
  }
}
