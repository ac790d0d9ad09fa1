import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLI_MAIN, NODE22, cliEnv, runCli } from '../cli/run-cli.ts'
import { clientsByRole, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { createToken } from '../support/tokens.ts'
import { READ_TOOLS, call, checkToolsAgainstApi, importLibrary, textOf } from './library.ts'

/** `sheaf mcp` as an assistant launches it: a child process, the token in SHEAF_TOKEN only. */
async function launch(t: TestServer, secret: string): Promise<{ mcp: McpClient; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: NODE22,
    args: [CLI_MAIN, 'mcp', '--url', t.url],
    env: cliEnv({ SHEAF_TOKEN: secret }) as Record<string, string>,
    stderr: 'pipe',
  })
  let stderr = ''
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
  const mcp = new McpClient({ name: 'sheaf-test', version: '1.0.0' })
  await mcp.connect(transport)
  return { mcp, stderr: () => stderr }
}

describe('sheaf mcp (stdio, a child process) against a running Sheaf', () => {
  let t: TestServer
  let c: Record<'admin' | 'member' | 'viewer', Client>
  const open: McpClient[] = []

  beforeAll(async () => {
    t = await startTestServer()
    c = await clientsByRole(t)
    await importLibrary(c.admin)
  })
  afterAll(async () => {
    for (const m of open) await m.close()
    await t?.close()
  })

  it('initializes, lists every tool with described inputs, and answers each as the HTTP API does', async () => {
    const { client, secret } = await createToken(c.member, 'stdio test')
    const { mcp, stderr } = await launch(t, secret)
    open.push(mcp)
    expect(mcp.getServerVersion()?.name).toBe('sheaf')
    expect(mcp.getInstructions()).toMatch(/search/)
    await checkToolsAgainstApi(mcp, client)
    expect(stderr()).toContain('serving member-')
    expect(stderr()).not.toContain(secret)
  })

  it('offers a read-only token only the reading tools, and the API refuses writes anyway', async () => {
    const { secret } = await createToken(c.member, 'stdio read-only', true)
    const { mcp } = await launch(t, secret)
    open.push(mcp)
    expect((await mcp.listTools()).tools.map((x) => x.name).sort()).toEqual(READ_TOOLS)
    const refused = await call(mcp, 'add_note', { id: 1, text: 'x' })
    expect(refused.isError).toBe(true)
  })

  it('answers a revoked token\'s tool calls with the API\'s refusal', async () => {
    const { id, secret } = await createToken(c.member, 'stdio revoked')
    const { mcp } = await launch(t, secret)
    open.push(mcp)
    expect((await c.member.delete(`/api/tokens/${id}`)).status).toBe(200)
    const r = await call(mcp, 'list_categories')
    expect(r.isError).toBe(true)
    expect(textOf(r)).toMatch(/revoked/)
    expect(r.structuredContent).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('refuses to start without a token or with a bad one, saying why on standard error', async () => {
    const none = await runCli(['mcp', '--url', t.url])
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/SHEAF_TOKEN/)
    expect(none.stdout).toBe('')
    const bad = await runCli(['mcp', '--url', t.url], { env: { SHEAF_TOKEN: 'sheaf_notatoken' } })
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/refused the token/)
    expect(bad.stderr).not.toContain('sheaf_notatoken')
    const nobody = await runCli(['mcp', '--url', 'http://127.0.0.1:9'], { env: { SHEAF_TOKEN: 'sheaf_x' } })
    expect(nobody.code).toBe(1)
    expect(nobody.stderr).toMatch(/no Sheaf answers/)
  })
})
