import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { ApiClient } from './api.ts'
import { registerTools, type Caller } from './tools.ts'

export const MCP_SERVER_NAME = 'sheaf'
const VERSION = '0.1.0'

const INSTRUCTIONS = 'Sheaf is the person\'s own library of posts they saved on X. Use `search` to find posts by meaning, ' +
  '`list_posts` to browse by category, author, tag or date, and `get_post` to read one in full. Posts are named by their Sheaf id (#123).'

/** One MCP server for one caller (a personal API token): its tools call the HTTP API with that token. */
export function createMcpServer(api: ApiClient, caller: Caller): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: VERSION }, { instructions: INSTRUCTIONS })
  registerTools(server, api, caller)
  return server
}
