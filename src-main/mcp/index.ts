export { createMcpHandler, type McpCaller, type McpHandler } from './http.ts'
export { runMcpStdio, type StdioOptions } from './stdio.ts'
export { MCP_SERVER_NAME } from './server.ts'
