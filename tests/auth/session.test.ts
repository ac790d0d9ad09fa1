import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zAuthResponse, zMeResponse, zSessionStatus } from '../../src-shared/schemas/users.ts'
import { Client, PASSWORD, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { decodeJwt, forgeJwt, tokenOf } from './token-tools.ts'

const DAY_S = 86_400

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

async function login(email: string, password = PASSWORD) {
  const c = new Client(t.url)
  const res = await c.post('/api/auth/login', { email, password })
  return { c, res }
}

describe('session cookie and token', () => {
  it('sets the cookie with exactly the contract attributes, in order', async () => {
    await t.sheaf.auth.users.create({ email: 'cookie@example.com', name: 'C', role: 'member', password: PASSWORD })
    const { res } = await login('cookie@example.com')
    expect(res.status).toBe(200)
    const set = res.headers.get('set-cookie')!
    expect(set).toMatch(/^token=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+; HttpOnly; Secure; SameSite=Strict; Path=\/; Max-Age=86400$/)
    expect(res.headers.getSetCookie()).toHaveLength(1)
    expect(zAuthResponse.parse(res.body).user).toEqual({ id: expect.any(Number), name: 'C', email: 'cookie@example.com', role: 'member' })
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/i)
  })

  it('signs an HS256 JWT with sub, email, role, iat and exp = iat + 24 h', async () => {
    t.clock.now = Date.UTC(2026, 0, 15, 12, 0, 0, 500)
    const created = await t.sheaf.auth.users.create({ email: 'claims@example.com', name: 'J', role: 'viewer', password: PASSWORD })
    const { c } = await login('claims@example.com')
    const { header, payload } = decodeJwt(tokenOf(c.cookie))
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' })
    const iat = Math.floor(t.clock.now / 1000)
    expect(payload).toEqual({ sub: String(created.id), email: 'claims@example.com', role: 'viewer', iat, exp: iat + DAY_S })
  })

  it('keeps the session until 24 h after issue, then answers 401', async () => {
    t.clock.now = Date.now()
    const c = await signedIn(t, 'viewer')
    t.clock.now += (DAY_S - 2) * 1000
    expect((await c.get('/api/auth/me')).status).toBe(200)
    t.clock.now += 3000
    const res = await c.get('/api/auth/me')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: expect.stringMatching(/expired/), code: 'UNAUTHORIZED' })
    t.clock.now = Date.now()
  })

  it('accepts the token as a Bearer header for scripts', async () => {
    const c = await signedIn(t, 'member')
    const script = new Client(t.url)
    const res = await script.get('/api/auth/me', { authorization: `Bearer ${tokenOf(c.cookie)}` })
    expect(res.status).toBe(200)
    expect(res.body.user.role).toBe('member')
  })

  it('answers 401 without a cookie', async () => {
    const res = await new Client(t.url).get('/api/auth/me')
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED' })
  })
})

describe('forged tokens are refused with 401 UNAUTHORIZED', () => {
  let valid: string
  let userId: number
  beforeAll(async () => {
    const u = await t.sheaf.auth.users.create({ email: 'victim@example.com', name: 'V', role: 'viewer', password: PASSWORD })
    userId = u.id
    valid = tokenOf((await login('victim@example.com')).c.cookie)
  })

  const claims = () => {
    const iat = Math.floor(t.clock.now / 1000)
    return { sub: String(userId), email: 'victim@example.com', role: 'admin', iat, exp: iat + DAY_S }
  }
  const key = async () => (await t.sheaf.secrets.get('JWT_SECRET'))!

  const cases: [string, () => Promise<string>][] = [
    ['alg: none, no signature', async () => forgeJwt({ alg: 'none', typ: 'JWT' }, claims(), null)],
    ['alg: none, with the real signature kept', async () => {
      const [, , sig] = valid.split('.')
      return forgeJwt({ alg: 'none', typ: 'JWT' }, claims(), null) + sig
    }],
    ['HS256 signed with a wrong key', async () => forgeJwt({ alg: 'HS256', typ: 'JWT' }, claims(), 'not-the-key')],
    ['HS512 signed with the real key', async () => {
      const [h, p] = forgeJwt({ alg: 'HS512', typ: 'JWT' }, claims(), null).split('.')
      const { createHmac } = await import('node:crypto')
      return `${h}.${p}.${createHmac('sha512', await key()).update(`${h}.${p}`).digest('base64url')}`
    }],
    ['a tampered payload (viewer → admin) with the original signature', async () => {
      const [h, , s] = valid.split('.')
      const p = Buffer.from(JSON.stringify({ ...decodeJwt(valid).payload, role: 'admin' })).toString('base64url')
      return `${h}.${p}.${s}`
    }],
    ['garbage', async () => 'not.a.jwt'],
    ['an empty value', async () => ''],
    ['a token that expired an hour ago, signed with the real key', async () => {
      const c = claims()
      return forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...c, iat: c.iat - DAY_S - 3600, exp: c.exp - DAY_S - 3600 }, await key())
    }],
    ['a token without sub, signed with the real key', async () => {
      const { sub: _sub, ...rest } = claims()
      return forgeJwt({ alg: 'HS256', typ: 'JWT' }, rest, await key())
    }],
    ['a token for a user id that does not exist, signed with the real key', async () =>
      forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims(), sub: '999999' }, await key())],
  ]

  it.each(cases)('%s', async (_name, make) => {
    const token = await make()
    const variants: Record<string, string>[] = [{ cookie: `token=${token}` }, { authorization: `Bearer ${token}` }]
    for (const headers of variants) {
      const res = await new Client(t.url).get('/api/auth/me', headers)
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED' })
    }
  })

  it('accepts a token built by hand with the real key (so the refusals above are about the forgery)', async () => {
    const token = forgeJwt({ alg: 'HS256', typ: 'JWT' }, { ...claims(), role: 'viewer' }, await key())
    const res = await new Client(t.url).get('/api/auth/me', { cookie: `token=${token}` })
    expect(res.status).toBe(200)
    expect(res.body.user.email).toBe('victim@example.com')
  })

  it('takes the role from the database, not from a validly signed claim', async () => {
    const token = forgeJwt({ alg: 'HS256', typ: 'JWT' }, claims(), await key())
    const res = await new Client(t.url).get('/api/users', { cookie: `token=${token}` })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('FORBIDDEN')
  })
})

describe('/api/auth/me, /logout, /refresh', () => {
  it('me returns the user and when the session ends', async () => {
    t.clock.now = Date.UTC(2026, 5, 1, 8, 0, 0)
    const c = await signedIn(t, 'member', 'me@example.com')
    const res = await c.get('/api/auth/me')
    expect(res.status).toBe(200)
    const body = zMeResponse.parse(res.body)
    expect(body.user).toMatchObject({ email: 'me@example.com', role: 'member' })
    expect(body.expiresAt).toBe('2026-06-02T08:00:00.000Z')
    t.clock.now = Date.now()
  })

  it('session answers what me does when signed in, and no user (200, not 401) otherwise', async () => {
    t.clock.now = Date.UTC(2026, 5, 1, 8, 0, 0)
    const c = await signedIn(t, 'viewer', 'session@example.com')
    const signed = await c.get('/api/auth/session')
    expect(signed.status).toBe(200)
    expect(zSessionStatus.parse(signed.body)).toEqual(zMeResponse.parse((await c.get('/api/auth/me')).body))
    const none = await new Client(t.url).get('/api/auth/session')
    expect(none.status).toBe(200)
    expect(none.body).toEqual({ user: null, expiresAt: null })
    t.clock.now += (DAY_S + 1) * 1000
    const expired = await c.get('/api/auth/session')
    expect([expired.status, expired.body]).toEqual([200, { user: null, expiresAt: null }])
    t.clock.now = Date.now()
  })

  it('logout clears the cookie with the same attributes and Max-Age=0', async () => {
    const c = await signedIn(t, 'viewer')
    const res = await c.post('/api/auth/logout')
    expect(res.status).toBe(200)
    expect(res.headers.get('set-cookie')).toBe('token=; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=0')
    expect(c.cookie).toBeNull()
    expect((await c.get('/api/auth/me')).status).toBe(401)
  })

  it('logout works without a session too (idempotent)', async () => {
    const res = await new Client(t.url).post('/api/auth/logout')
    expect(res.status).toBe(200)
    expect(res.headers.get('set-cookie')).toContain('Max-Age=0')
  })

  it('refresh issues a new 24 h token from the current time', async () => {
    t.clock.now = Date.UTC(2026, 2, 1, 0, 0, 0)
    const c = await signedIn(t, 'viewer')
    const first = decodeJwt(tokenOf(c.cookie)).payload
    t.clock.now += 20 * 3600 * 1000
    const res = await c.post('/api/auth/refresh')
    expect(res.status).toBe(200)
    expect(res.headers.get('set-cookie')).toMatch(/; HttpOnly; Secure; SameSite=Strict; Path=\/; Max-Age=86400$/)
    const second = decodeJwt(tokenOf(c.cookie)).payload
    expect(second.iat).toBe((first.iat as number) + 20 * 3600)
    expect(second.exp).toBe((second.iat as number) + DAY_S)
    expect(res.body.expiresAt).toBe(new Date((second.exp as number) * 1000).toISOString())
    t.clock.now += 10 * 3600 * 1000 // 30 h after the first login, 10 h after the refresh
    expect((await c.get('/api/auth/me')).status).toBe(200)
    t.clock.now = Date.now()
  })

  it('refresh needs a session', async () => {
    const res = await new Client(t.url).post('/api/auth/refresh')
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('UNAUTHORIZED')
  })
})
