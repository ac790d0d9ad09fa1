import { runMcpStdio } from '../mcp/index.ts'
import { DEFAULT_PORT } from './config.ts'

/** Where `sheaf mcp` looks for Sheaf without --url: SHEAF_URL, else this machine on SHEAF_PORT (5717). */
export const defaultSheafUrl = (env: NodeJS.ProcessEnv = process.env): string =>
  env.SHEAF_URL ?? `http://127.0.0.1:${env.SHEAF_PORT || DEFAULT_PORT}`

/** Loaded by `sheaf mcp` alone: the MCP client side needs no database, secrets or pipeline. */
export { runMcpStdio }
