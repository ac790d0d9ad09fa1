import { runMcpStdio } from '../mcp/index.ts'
export { resolveMcpClientConfig } from './config.ts'

/** Loaded by `sheaf mcp` alone: the MCP client side needs no database, secrets or pipeline. */
export { runMcpStdio }
