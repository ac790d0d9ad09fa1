import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLogger } from '../../src-main/app/index.ts'
import { zApiToken, zTokenCreated } from '../../src-shared/schemas/tokens.ts'
import { Client, clientsByRole, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { BearerClient, createToken } from '../support/tokens.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

describe('personal API tokens over the real server', () => {
  let t: TestServer
  let c: Awaited<ReturnType<typeof clientsByRole>>
  const logged: string[] = []

  beforeAll(async () => {
    t = await startTestServer({ log: createLogger({ level: 'info', write: (line) => logged.push(line) }) })
    c = await clientsByRole(t)
  })
  afterAll(async () => t?.close())

  it('shows the secret once, lists the token by name and hint only, and keeps only its SHA-256', async () => {
    const res = await c.member.post('/api/tokens', { name: 'Claude Desktop' })
    expect(res.status).toBe(201)
    const { token, secret } = zTokenCreated.parse(res.body)
    expect(secret).toMatch(/^sheaf_[A-Za-z0-9_-]{43}$/)
    expect(token).toMatchObject({ name: 'Claude Desktop', readOnly: false, revokedAt: null, lastUsedAt: null })
    expect(secret.startsWith(token.hint)).toBe(true)

    const list = await c.member.get('/api/tokens')
    expect(list.status).toBe(200)
    expect(list.body.tokens.map((x: unknown) => zApiToken.parse(x).id)).toContain(token.id)
    expect(JSON.stringify(list.body)).not.toContain(secret)

    const row = sqliteOf(t.sheaf.db).prepare('SELECT * FROM api_tokens WHERE id = ?').get(token.id) as Record<string, unknown>
    expect(row.token_hash).toBe(createHash('sha256').update(secret).digest('hex'))
    expect(JSON.stringify(row)).not.toContain(secret)
    sqliteOf(t.sheaf.db).pragma('wal_checkpoint(TRUNCATE)')
    for (const f of readdirSync(t.dataDir).filter((n) => n.startsWith('sheaf.db'))) {
      expect(readFileSync(join(t.dataDir, f)).includes(secret), f).toBe(false)
    }
  })

  it('acts as its user with their role, and /api/auth/me names the token', async () => {
    const { client, id } = await createToken(c.member, 'script')
    const me = await client.get('/api/auth/me')
    expect(me.status).toBe(200)
    expect(me.body).toMatchObject({ user: { role: 'member' }, expiresAt: null, token: { id, name: 'script', readOnly: false } })
    expect((await client.get('/api/bookmarks')).status).toBe(200)
    expect((await client.get('/api/search/ai?q=anything')).status).toBe(200)
    const admin = await client.post('/api/categories', { name: 'Not mine to make' })
    expect(admin.status).toBe(403)
    expect(admin.body.code).toBe('FORBIDDEN')
    expect((await client.get('/api/users')).status).toBe(403)
  })

  it('follows a role change at once: a demoted member\'s token loses search', async () => {
    const email = `demoted-${Date.now()}@example.com`
    const owner = await signedIn(t, 'member', email)
    const { client } = await createToken(owner, 'before demotion')
    expect((await client.get('/api/search/ai?q=x')).status).toBe(200)
    const user = t.sheaf.auth.users.findByEmail(email)!
    expect((await c.admin.patch(`/api/users/${user.id}`, { role: 'viewer' })).status).toBe(200)
    const res = await client.get('/api/search/ai?q=x')
    expect(res.status).toBe(403)
    expect((await client.get('/api/bookmarks')).status).toBe(200)
  })

  it('is refused to viewers: they cannot create tokens', async () => {
    const res = await c.viewer.post('/api/tokens', { name: 'mine' })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('FORBIDDEN')
  })

  it('read-only: reads and searches, never changes anything', async () => {
    const { client } = await createToken(c.member, 'reader', true)
    expect((await client.get('/api/bookmarks')).status).toBe(200)
    expect((await client.get('/api/search/ai?q=x')).status).toBe(200)
    for (const [method, path, body] of [['PUT', '/api/bookmarks/1/note', { text: 'x' }], ['POST', '/api/categorize', {}], ['POST', '/api/bookmarks/bulk', { ids: [1], action: 'delete' }]] as const) {
      const res = await client.request(method, path, body)
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.body.error).toMatch(/read-only/)
    }
  })

  it('stops working the moment it is revoked', async () => {
    const { client, id } = await createToken(c.member, 'to revoke')
    expect((await client.get('/api/bookmarks')).status).toBe(200)
    const other = await signedIn(t, 'member')
    expect((await other.delete(`/api/tokens/${id}`)).status).toBe(404)
    expect((await client.get('/api/bookmarks')).status).toBe(200)
    const res = await c.member.delete(`/api/tokens/${id}`)
    expect(res.status).toBe(200)
    expect(res.body.token.revokedAt).not.toBeNull()
    const after = await client.get('/api/bookmarks')
    expect(after.status).toBe(401)
    expect(after.body).toMatchObject({ code: 'UNAUTHORIZED', error: expect.stringMatching(/revoked/) })
    expect((await c.member.get('/api/tokens')).body.tokens.map((x: { id: number }) => x.id)).not.toContain(id)
  })

  it('stops working the moment its user is removed', async () => {
    const email = `leaving-${Date.now()}@example.com`
    const owner = await signedIn(t, 'member', email)
    const { client } = await createToken(owner, 'will be orphaned')
    expect((await client.get('/api/bookmarks')).status).toBe(200)
    const user = t.sheaf.auth.users.findByEmail(email)!
    expect((await c.admin.delete(`/api/users/${user.id}`)).status).toBe(204)
    const res = await client.get('/api/bookmarks')
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('UNAUTHORIZED')
  })

  it('is never a browser session: not in the cookie, not past the CSRF checks, not for managing tokens or minting a session', async () => {
    const { client, secret } = await createToken(c.member, 'not a cookie')
    const cookie = new Client(t.url)
    cookie.cookie = `token=${secret}`
    expect((await cookie.get('/api/bookmarks')).status).toBe(401)

    const script = await client.put('/api/bookmarks/1/note', { text: 'x' })
    expect(script.status).toBe(404) // a script (no browser headers) passes the guard; there is no post 1
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'http://evil.example' }, { origin: t.url }] as Record<string, string>[]) {
      const res = await client.request('PUT', '/api/bookmarks/1/note', { text: 'x' }, headers)
      expect(res.status, JSON.stringify(headers)).toBe(403)
    }

    expect((await client.get('/api/tokens')).status).toBe(403)
    expect((await client.post('/api/tokens', { name: 'more' })).status).toBe(403)
    const refresh = await client.post('/api/auth/refresh')
    expect(refresh.status).toBe(403)
    expect(refresh.headers.get('set-cookie')).toBeNull()
  })

  it('refuses an unknown or malformed token with 401', async () => {
    for (const secret of ['sheaf_' + 'A'.repeat(43), 'sheaf_', 'sheaf_%%%']) {
      const res = await new BearerClient(t.url, secret).get('/api/bookmarks')
      expect(res.status, secret).toBe(401)
      expect(res.body.code).toBe('UNAUTHORIZED')
    }
  })

  it('validates the name', async () => {
    for (const body of [{}, { name: '   ' }, { name: 'x'.repeat(101) }, { name: 'ok', readOnly: 'yes' }]) {
      const res = await c.member.post('/api/tokens', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.code).toBe('VALIDATION_ERROR')
    }
  })

  it('never writes a secret to the log', async () => {
    const { client, secret } = await createToken(c.admin, 'logged?')
    await client.get('/api/no-such-route')
    await client.get('/api/bookmarks/999999')
    const all = logged.join('\n')
    expect(all).not.toContain(secret)
    expect(all).not.toContain('sheaf_')
  })
})

describe('per-token rate limit', () => {
  let t: TestServer
  beforeAll(async () => {
    t = await startTestServer({ env: { SHEAF_RATE_LIMIT_TOKEN: '3/1m' } })
  })
  afterAll(async () => t?.close())

  it('counts each token on its own, apart from the person\'s browser session', async () => {
    const owner = await signedIn(t, 'member')
    const a = await createToken(owner, 'a')
    const b = await createToken(owner, 'b')
    for (let i = 0; i < 3; i++) expect((await a.client.get('/api/bookmarks')).status).toBe(200)
    const limited = await a.client.get('/api/bookmarks')
    expect(limited.status).toBe(429)
    expect(limited.body.code).toBe('RATE_LIMITED')
    expect(limited.headers.get('ratelimit-policy')).toBe('3;w=60')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await b.client.get('/api/bookmarks')).status).toBe(200)
    expect((await owner.get('/api/bookmarks')).status).toBe(200)
    t.clock.now += 61_000
    expect((await a.client.get('/api/bookmarks')).status).toBe(200)
  })
})
