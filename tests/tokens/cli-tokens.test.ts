import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { runCli } from '../cli/run-cli.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { BearerClient } from '../support/tokens.ts'

vi.setConfig({ testTimeout: 120_000 })

describe('sheaf token create / list / revoke, against a server running on the same library', () => {
  let dir: string
  let t: TestServer
  const sheaf = (args: string[], stdin?: string) => runCli(['--data-dir', dir, ...args], { stdin })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sheaf-cli-tokens-'))
    for (const [email, role] of [['mia@example.com', 'member'], ['vic@example.com', 'viewer']]) {
      const r = await sheaf(['user', 'add', '--email', email, '--name', email, '--role', role, '--password-stdin'], 'long enough password')
      expect(r.code, r.stderr).toBe(0)
    }
    t = await startTestServer({ dataDir: dir })
  })
  afterAll(async () => {
    await t?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('prints the secret once on stdout, lists by hint, and a revoke stops the running server accepting it', async () => {
    for (const sub of ['create', 'list', 'revoke']) expect((await runCli(['token', sub, '--help'])).stdout).toMatch(new RegExp(`^Usage: sheaf token ${sub}`))

    const created = await sheaf(['token', 'create', '--user', 'mia@example.com', '--name', 'Claude Desktop', '--read-only'])
    expect(created.code, created.stderr).toBe(0)
    const secret = created.stdout.trim()
    expect(secret).toMatch(/^sheaf_[A-Za-z0-9_-]{43}$/)
    expect(created.stderr).toMatch(/read-only.*shown only now/)

    const list = await sheaf(['token', 'list'])
    expect(list.stdout).toContain('Claude Desktop')
    expect(list.stdout).toContain(`${secret.slice(0, 10)}…`)
    expect(list.stdout).not.toContain(secret)
    const id = (JSON.parse((await sheaf(['token', 'list', '--json'])).stdout) as Array<{ id: number; readOnly: boolean }>)[0]
    expect(id.readOnly).toBe(true)

    const api = new BearerClient(t.url, secret)
    expect((await api.get('/api/bookmarks')).status).toBe(200)
    expect((await api.put('/api/bookmarks/1/note', { text: 'x' })).status).toBe(403)

    const revoked = await sheaf(['token', 'revoke', String(id.id)])
    expect(revoked.code).toBe(0)
    expect(revoked.stdout).toMatch(/is revoked/)
    expect((await api.get('/api/bookmarks')).status).toBe(401)
    expect((await sheaf(['token', 'list'])).stdout.trim()).toBe('no API tokens')
  })

  it('refuses a viewer, an unknown user and a bad id with exit 1 and one line', async () => {
    const viewer = await sheaf(['token', 'create', '--user', 'vic@example.com', '--name', 'x'])
    expect(viewer.code).toBe(1)
    expect(viewer.stderr).toMatch(/^sheaf: Only members and admins can create API tokens/)
    expect(viewer.stdout).toBe('')
    expect((await sheaf(['token', 'create', '--user', 'nobody@example.com', '--name', 'x'])).code).toBe(1)
    expect((await sheaf(['token', 'revoke', 'abc'])).code).toBe(1)
    expect((await sheaf(['token', 'revoke', '999'])).code).toBe(1)
    expect((await sheaf(['token', 'create', '--user', 'mia@example.com'])).code).toBe(2)
  })
})
