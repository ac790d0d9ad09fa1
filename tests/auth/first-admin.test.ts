import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { zSetupStatus } from '../../src-shared/schemas/users.ts'
import { findUserByEmail } from '../../src-main/store/queries/accounts.ts'
import { Client, PASSWORD } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'

const servers: TestServer[] = []
const start = async (...args: Parameters<typeof startTestServer>) => {
  const t = await startTestServer(...args)
  servers.push(t)
  return t
}
afterEach(async () => {
  for (const t of servers.splice(0)) await t.close()
})

const setupBody = { name: 'First', email: ' First@Example.com', password: PASSWORD }

/** A request through the app without a socket: the server cannot see a loopback address. */
const withoutSocket = (t: TestServer, method: string, body?: unknown) =>
  t.sheaf.app.request('/api/auth/setup', {
    method,
    headers: { host: 'localhost', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

describe('first-run setup (GET/POST /api/auth/setup)', () => {
  it('reports needsSetup while no user exists, and that the caller is local', async () => {
    const t = await start()
    const res = await new Client(t.url).get('/api/auth/setup')
    expect(res.status).toBe(200)
    expect(zSetupStatus.parse(res.body)).toEqual({ needsSetup: true, local: true })
  })

  it('creates the first admin from the machine itself, signs them in, then closes', async () => {
    const t = await start()
    const c = new Client(t.url)
    const res = await c.post('/api/auth/setup', setupBody)
    expect(res.status).toBe(201)
    expect(res.body.user).toEqual({ id: expect.any(Number), name: 'First', email: 'first@example.com', role: 'admin' })
    expect(res.headers.get('set-cookie')).toMatch(/^token=[^;]+; HttpOnly; Secure; SameSite=Strict; Path=\/; Max-Age=86400$/)
    expect((await c.get('/api/users')).status).toBe(200)

    expect((await c.get('/api/auth/setup')).body).toEqual({ needsSetup: false, local: true })
    const again = await new Client(t.url).post('/api/auth/setup', { ...setupBody, email: 'second@example.com' })
    expect(again.status).toBe(403)
    expect(again.body).toEqual({ error: expect.stringMatching(/already set up/), code: 'FORBIDDEN' })
    expect(t.sheaf.auth.users.count()).toBe(1)
  })

  it('is closed once any user exists, even one added from the CLI or the API', async () => {
    const t = await start()
    await t.sheaf.auth.users.create({ email: 'someone@example.com', name: 'S', role: 'viewer', password: PASSWORD })
    const res = await new Client(t.url).post('/api/auth/setup', setupBody)
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('FORBIDDEN')
  })

  it('refuses a caller that is not on the machine itself', async () => {
    const t = await start()
    const status = await withoutSocket(t, 'GET')
    expect(await status.json()).toEqual({ needsSetup: true, local: false })
    const res = await withoutSocket(t, 'POST', setupBody)
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ error: expect.stringMatching(/on the machine running Sheaf/), code: 'FORBIDDEN' })
    expect(res.headers.get('set-cookie')).toBeNull()
    expect(t.sheaf.auth.users.count()).toBe(0)
  })

  it('validates the form like registration (password rules, e-mail)', async () => {
    const t = await start()
    const short = await new Client(t.url).post('/api/auth/setup', { ...setupBody, password: 'short' })
    expect(short.status).toBe(400)
    expect(short.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'password' } })
    const email = await new Client(t.url).post('/api/auth/setup', { ...setupBody, email: 'nope' })
    expect(email.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'email' } })
  })
})

describe('bootstrap admin from SHEAF_ADMIN_* environment variables', () => {
  it('creates the admin on first start, normalising the e-mail, and signs in with it', async () => {
    const t = await start({ env: { SHEAF_ADMIN_EMAIL: ' Root@Example.com ', SHEAF_ADMIN_PASSWORD: 'bootstrap pw 1', SHEAF_ADMIN_NAME: 'Root' } })
    expect(t.sheaf.auth.users.list()).toEqual([{ id: expect.any(Number), name: 'Root', email: 'root@example.com', role: 'admin' }])
    const res = await new Client(t.url).post('/api/auth/login', { email: 'root@example.com', password: 'bootstrap pw 1' })
    expect(res.status).toBe(200)
    expect((await new Client(t.url).get('/api/auth/setup')).body.needsSetup).toBe(false)
  })

  it('does nothing when users already exist', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-boot-'))
    try {
      const first = await startTestServer({ dataDir })
      await first.sheaf.auth.users.create({ email: 'owner@example.com', name: 'O', role: 'admin', password: PASSWORD })
      await first.close()
      const second = await start({ dataDir, env: { SHEAF_ADMIN_EMAIL: 'late@example.com', SHEAF_ADMIN_PASSWORD: 'bootstrap pw 2' } })
      expect(second.sheaf.auth.users.list().map((u) => u.email)).toEqual(['owner@example.com'])
    } finally {
      for (const t of servers.splice(0)) await t.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('needs both the e-mail and the password', async () => {
    const t = await start({ env: { SHEAF_ADMIN_EMAIL: 'half@example.com' } })
    expect(t.sheaf.auth.users.count()).toBe(0)
  })
})

describe('production bcrypt cost', () => {
  it('hashes with cost 12 when createApp gets no override', async () => {
    const t = await start({ bcryptCost: undefined })
    await t.sheaf.auth.users.create({ email: 'cost@example.com', name: 'C', role: 'viewer', password: PASSWORD })
    const res = await new Client(t.url).post('/api/auth/setup', { ...setupBody })
    expect(res.status).toBe(403) // a user exists, so setup is closed; the hash below is what matters
    expect(findUserByEmail(t.sheaf.db, 'cost@example.com')!.passwordHash).toMatch(/^\$2b\$12\$.{53}$/)
    const login = await new Client(t.url).post('/api/auth/login', { email: 'cost@example.com', password: PASSWORD })
    expect(login.status).toBe(200)
  })
})
