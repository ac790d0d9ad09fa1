import type { HttpBindings } from '@hono/node-server'
import type { AppError } from '../../src-shared/errors.ts'
import type { TokenIdentity } from '../../src-shared/schemas/tokens.ts'
import type { User } from '../../src-shared/schemas/users.ts'

export interface AppVariables {
  /** Set by the session middleware on authenticated requests. */
  user: User
  /** The client's address as seen on the socket (proxies are not trusted). */
  clientIp: string
  /** The request came from this machine. */
  isLoopback: boolean
  /** Unix seconds at which the current session token expires. */
  sessionExp: number
  /** Set when the request was made with a personal API token (not a browser session). */
  apiToken: TokenIdentity
  /** Why the presented token was refused (set by `identify`, thrown by `requireSession` on non-public routes). */
  sessionError: AppError
}

/**
 * `listener: 'lan'` marks requests that arrived on the LAN sharing listener (src-main/lan); `via: 'mcp'`
 * the API calls the /mcp endpoint makes in-process for a tool (already counted against the token's limit).
 */
export type AppEnv = { Bindings: HttpBindings & { listener?: 'lan'; via?: 'mcp' }; Variables: AppVariables }
