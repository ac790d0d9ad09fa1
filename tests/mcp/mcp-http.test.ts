import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clientsByRole, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { createToken } from '../support/tokens.ts'
import { READ_TOOLS, checkToolsAgainstApi, importLibrary } from './library.ts'

const connect = async (t: TestServer, headers: Record<string, string>): Promise<McpClient> => {
  const mcp = new McpClient({ name: 'sheaf-test', version: '1.0.0' })
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers } }))
  return mcp
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }

describe('/mcp (Streamable HTTP) with a bearer token', () => {
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

  it('answers every tool as the HTTP API does for the same token', async () => {
    const { client, secret } = await createToken(c.member, 'http test')
    const mcp = await connect(t, { Authorization: `Bearer ${secret}` })
    open.push(mcp)
    expect(mcp.getServerVersion()?.name).toBe('sheaf')
    await checkToolsAgainstApi(mcp, client)
  })

  it('gives a read-only token the reading tools only', async () => {
    const { secret } = await createToken(c.member, 'http read-only', true)
    const mcp = await connect(t, { Authorization: `Bearer ${secret}` })
    open.push(mcp)
    expect((await mcp.listTools()).tools.map((x) => x.name).sort()).toEqual(READ_TOOLS)
  })

  it('opens only for a personal API token: not the cookie, not a session JWT, not a revoked token', async () => {
    const post = (headers: Record<string, string>) => fetch(`${t.url}/mcp`, {
      method: 'POST', body: JSON.stringify(INIT),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    })
    const session = c.member.cookie!
    const jwt = session.split('=')[1]
    for (const headers of [{}, { cookie: session }, { authorization: `Bearer ${jwt}` }] as Record<string, string>[]) {
      const res = await post(headers)
      expect(res.status, JSON.stringify(headers)).toBe(401)
      expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' })
    }
    const { id, secret } = await createToken(c.member, 'http revoked')
    expect((await post({ authorization: `Bearer ${secret}` })).status).toBe(200)
    expect((await post({ authorization: `Bearer ${secret}`, origin: 'http://evil.example' })).status).toBe(403)
    await c.member.delete(`/api/tokens/${id}`)
    expect((await post({ authorization: `Bearer ${secret}` })).status).toBe(401)
    await expect(connect(t, { Authorization: `Bearer ${secret}` })).rejects.toThrow()
  })

  it('is stateless: GET and DELETE answer 405', async () => {
    const { secret } = await createToken(c.member, 'http methods')
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${t.url}/mcp`, { method, headers: { authorization: `Bearer ${secret}`, accept: 'text/event-stream' } })
      expect(res.status, method).toBe(405)
      expect(((await res.json()) as { code: string }).code).toBe('VALIDATION_ERROR')
    }
  })
})

describe('/mcp and the per-token rate limit', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer({ env: { SHEAF_RATE_LIMIT_TOKEN: '4/1m' } })
  })
  afterAll(async () => t?.close())

  it('counts each MCP request once (the API calls a tool makes in-process are not counted again)', async () => {
    const owner = (await clientsByRole(t)).member
    const { secret } = await createToken(owner, 'limited')
    const toolCall = (id: number) => fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_posts', arguments: {} } }),
    })
    for (let i = 1; i <= 4; i++) {
      const res = await toolCall(i)
      expect(res.status, `call ${i}`).toBe(200)
      expect(((await res.json()) as { result: { isError?: boolean } }).result.isError, `call ${i}`).toBeFalsy()
    }
    const limited = await toolCall(5)
    expect(limited.status).toBe(429)
    expect(((await limited.json()) as { code: string }).code).toBe('RATE_LIMITED')
  })
})
