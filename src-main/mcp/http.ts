import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import type { TokenIdentity } from '../../src-shared/schemas/tokens.ts'
import type { User } from '../../src-shared/schemas/users.ts'
import { createApiClient, type FetchLike } from './api.ts'
import { createMcpServer } from './server.ts'

/** Who is calling /mcp: the HTTP layer checked the token before handing the request over. */
export interface McpCaller {
  secret: string
  user: User
  token: TokenIdentity
}

export type McpHandler = (req: Request, caller: McpCaller) => Promise<Response>

/**
 * MCP over Streamable HTTP, stateless: every POST gets a fresh server and transport, answered as JSON.
 * The tools call the API in-process through `fetchApi` with the caller's token, so the API's own
 * checks (role, read-only, existence) decide every call.
 */
export function createMcpHandler(fetchApi: FetchLike): McpHandler {
  // A Request built in-process carries no Host header; the API's Host check wants one it serves.
  const inProcess: FetchLike = (req) => {
    req.headers.set('host', 'localhost')
    return fetchApi(req)
  }
  return async (req, caller) => {
    const api = createApiClient(inProcess, 'http://localhost', caller.secret)
    const server = createMcpServer(api, { role: caller.user.role, readOnly: caller.token.readOnly })
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(req)
    } finally {
      await server.close()
    }
  }
}
