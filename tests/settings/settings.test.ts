import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zCliStatus, zSettingsView } from '../../src-shared/schemas/settings.ts'
import { createLogger } from '../../src-main/app/index.ts'
import { fakeAnthropic, type FakeServer } from '../ai/providers/fake-servers.ts'
import { installFakeClaude, type FakeClaude } from '../ai/providers/fake-claude.ts'
import { clientsByRole, type Client } from '../support/client.ts'
import type { Role } from '../../src-shared/roles.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

const KEY = 'sk-ant-api03-SECRETvalue-9f8e7d6c5b4a-wxyz'

describe('settings', () => {
  let t: TestServer
  let c: Record<Role, Client>
  let fake: FakeServer
  let claude: FakeClaude
  const logs: string[] = []
  const bodies: string[] = []

  beforeAll(async () => {
    claude = installFakeClaude()
    claude.setMode('unauth')
    fake = await fakeAnthropic()
    t = await startTestServer({ log: createLogger({ level: 'debug', write: (l) => logs.push(l) }) })
    c = await clientsByRole(t)
  })
  afterAll(async () => {
    await t?.close()
    await fake?.close()
    claude?.restore()
  })
  const keep = <T extends { body: unknown }>(r: T) => {
    bodies.push(JSON.stringify(r.body))
    return r
  }

  it('is for admins only', async () => {
    for (const role of ['viewer', 'member'] as const) {
      expect((await c[role].get('/api/settings')).status).toBe(403)
      expect((await c[role].put('/api/settings', { provider: 'local' })).status).toBe(403)
      expect((await c[role].get('/api/settings/cli-status')).status).toBe(403)
      expect((await c[role].post('/api/settings/test', { provider: 'local' })).status).toBe(403)
    }
  })

  it('starts local, with the secret store kind and no key', async () => {
    const r = keep(await c.admin.get('/api/settings'))
    const v = zSettingsView.parse(r.body)
    expect(v).toMatchObject({ provider: 'local', hasKey: false, maskedKey: null, secretStore: 'memory', autoRunAfterImport: true, lanSharing: { enabled: false } })
  })

  it('stores a key write-only and shows it masked', async () => {
    const put = keep(await c.admin.put('/api/settings', { provider: 'anthropic', apiKey: KEY, baseUrl: fake.url, model: 'claude-haiku-4-5' }))
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ provider: 'anthropic', hasKey: true, maskedKey: 'sk-…wxyz', baseUrl: fake.url, model: 'claude-haiku-4-5' })
    expect(await t.sheaf.secrets.get('ai:anthropic')).toBe(KEY)
    const get = keep(await c.admin.get('/api/settings'))
    expect(get.body.providers.anthropic).toMatchObject({ hasKey: true, maskedKey: 'sk-…wxyz' })
    expect(get.body.providers.openai).toMatchObject({ hasKey: false, maskedKey: null })
  })

  it('refuses unknown fields and a key for the CLI', async () => {
    expect((await c.admin.put('/api/settings', { apiKeyPlain: 'x' })).status).toBe(400)
    expect((await c.admin.put('/api/settings', { target: 'claude-cli', apiKey: 'x' })).status).toBe(400)
  })

  it('tests a provider with a real minimal call', async () => {
    const ok = keep(await c.admin.post('/api/settings/test', { provider: 'anthropic' }))
    expect(ok.body).toEqual({ valid: true, provider: 'anthropic', method: 'api-key' })
    expect(fake.requests.at(-1)!.headers['x-api-key']).toBe(KEY)
    const local = keep(await c.admin.post('/api/settings/test', { provider: 'local' }))
    expect(local.body).toEqual({ valid: true, provider: 'local', method: 'local' })
    const cli = keep(await c.admin.post('/api/settings/test', { provider: 'claude-cli' }))
    expect(cli.body).toMatchObject({ valid: false, provider: 'claude-cli', method: 'claude-cli-oauth' })
    expect(cli.body.error).toMatch(/login|claude/i)
  })

  it('reports credential status with exactly {authenticated, method, model}', async () => {
    const apiKey = keep(await c.admin.get('/api/settings/cli-status'))
    expect(zCliStatus.parse(apiKey.body)).toEqual({ authenticated: true, method: 'api-key', model: 'claude-haiku-4-5' })
    claude.setMode('ok')
    const t2 = await startTestServer()
    try {
      const admin2 = (await clientsByRole(t2)).admin
      const cli = await admin2.get('/api/settings/cli-status')
      expect(cli.body).toEqual({ authenticated: true, method: 'claude-cli-oauth', model: 'claude-sonnet-4-5' })
    } finally {
      await t2.close()
    }
  })

  it('never lets the key out: not in responses, not in SQLite, not in logs', async () => {
    keep(await c.admin.put('/api/settings', { target: 'anthropic', apiKey: 'bad-key' }))
    const failed = keep(await c.admin.post('/api/settings/test', { provider: 'anthropic' }))
    expect(failed.body.valid).toBe(false)
    keep(await c.admin.put('/api/settings', { target: 'anthropic', apiKey: KEY }))
    for (const b of bodies) expect(b).not.toContain(KEY)
    for (const l of logs) expect(l).not.toContain(KEY)
    sqliteOf(t.sheaf.db).pragma('wal_checkpoint(TRUNCATE)')
    for (const f of readdirSync(t.dataDir).filter((f) => f.startsWith('sheaf.db'))) {
      expect(readFileSync(join(t.dataDir, f)).includes(Buffer.from(KEY)), f).toBe(false)
    }
    const cleared = await c.admin.put('/api/settings', { target: 'anthropic', apiKey: '' })
    expect(cleared.body).toMatchObject({ hasKey: false, maskedKey: null })
    expect(await t.sheaf.secrets.get('ai:anthropic')).toBeNull()
  })
})
