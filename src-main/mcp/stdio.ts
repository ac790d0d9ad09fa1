import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { zMeResponse } from '../../src-shared/schemas/users.ts'
import { ApiCallError, createApiClient } from './api.ts'
import { createMcpServer } from './server.ts'

export interface StdioOptions {
  /** Where the running Sheaf answers, e.g. http://127.0.0.1:5717. */
  url: string
  /** A personal API token (SHEAF_TOKEN). */
  secret: string
  /** Where to say what went wrong (standard error: standard output carries the protocol). */
  warn: (line: string) => void
}

/**
 * `sheaf mcp`: MCP over standard input and output for a desktop assistant, against a running Sheaf.
 * Asks once who the token belongs to, to offer only the tools it may use; the API checks every call.
 */
export async function runMcpStdio({ url, secret, warn }: StdioOptions): Promise<{ closed: Promise<void> }> {
  const api = createApiClient((req) => fetch(req), url, secret)
  const me = await api.get('/api/auth/me').catch((e: unknown) => {
    if (e instanceof ApiCallError) throw new Error(`Sheaf at ${url} refused the token: ${e.message}`)
    throw new Error(`no Sheaf answers at ${url} (${(e as Error).message}); start it with \`sheaf serve\` or pass --url`)
  })
  const { user, token } = zMeResponse.parse(me)
  if (!token) throw new Error('SHEAF_TOKEN must be a personal API token (sheaf_…), not a session token')
  const server = createMcpServer(api, { role: user.role, readOnly: token.readOnly })
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve()
  })
  await server.connect(transport)
  warn(`sheaf mcp: serving ${user.email} (${user.role}${token.readOnly ? ', read-only' : ''}) with the token "${token.name}" against ${url}`)
  return { closed }
}
