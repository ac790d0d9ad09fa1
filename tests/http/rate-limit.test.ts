import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, PASSWORD } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { rawRequest } from './raw-request.ts'

const MINUTE = 60_000
let t: TestServer
beforeAll(async () => {
  t = await startTestServer({
    env: { SHEAF_RATE_LIMIT_LOGIN: '5/1m', SHEAF_RATE_LIMIT_REGISTER: '3/1h', SHEAF_RATE_LIMIT_API: '60/1m' },
  })
  await t.sheaf.auth.users.create({ email: 'rl@example.com', name: 'R', role: 'member', password: PASSWORD })
})
afterAll(() => t.close())

/** Moves past every window so each test starts with fresh counters. */
const nextHour = () => {
  t.clock.now += 61 * MINUTE
}

/** A client already signed in, without spending a login attempt. */
async function sessionFor(email: string, role: 'admin' | 'member' | 'viewer' = 'member'): Promise<Client> {
  const user = t.sheaf.auth.users.findByEmail(email) ??
    (await t.sheaf.auth.users.create({ email, name: email, role, password: PASSWORD }))
  const c = new Client(t.url)
  c.cookie = `token=${(await t.sheaf.auth.sessions.issue(user)).token}`
  return c
}

const rateHeaders = (h: Headers) => ({
  limit: h.get('ratelimit-limit'),
  remaining: h.get('ratelimit-remaining'),
  reset: h.get('ratelimit-reset'),
  retryAfter: h.get('retry-after'),
})

describe('login: 5 per minute per address', () => {
  it('answers the 6th attempt within a minute with 429, Retry-After and RateLimit-* headers', async () => {
    nextHour()
    const c = new Client(t.url)
    for (let i = 1; i <= 5; i++) {
      const res = await c.post('/api/auth/login', { email: 'rl@example.com', password: i === 5 ? PASSWORD : 'wrong password' })
      expect(res.status).toBe(i === 5 ? 200 : 401)
      expect(rateHeaders(res.headers)).toEqual({ limit: '5', remaining: String(5 - i), reset: '60', retryAfter: null })
      expect(res.headers.get('ratelimit-policy')).toBe('5;w=60')
    }
    t.clock.now += 15_000
    const sixth = await new Client(t.url).post('/api/auth/login', { email: 'rl@example.com', password: PASSWORD })
    expect(sixth.status).toBe(429)
    expect(sixth.body).toEqual({ error: 'Too many sign-in attempts; try again in 45 seconds.', code: 'RATE_LIMITED' })
    expect(rateHeaders(sixth.headers)).toEqual({ limit: '5', remaining: '0', reset: '45', retryAfter: '45' })
    expect(sixth.headers.get('set-cookie')).toBeNull()
    expect(sixth.headers.get('content-type')).toMatch(/^application\/json/)
  })

  it('counts per address: another client address still gets its 5', async () => {
    nextHour()
    const login = (localAddress: string) =>
      rawRequest(`${t.url}/api/auth/login`, {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'rl@example.com', password: 'wrong password' }),
      })
    for (let i = 0; i < 5; i++) expect((await login('127.0.0.1')).status).toBe(401)
    expect((await login('127.0.0.1')).status).toBe(429)
    const other = await login('127.0.0.2')
    expect(other.status).toBe(401)
    expect(other.headers['ratelimit-remaining']).toBe('4')
  })

  it('opens again when the window has passed (injected clock)', async () => {
    nextHour()
    const c = new Client(t.url)
    for (let i = 0; i < 5; i++) await c.post('/api/auth/login', { email: 'rl@example.com', password: 'x' })
    expect((await c.post('/api/auth/login', { email: 'rl@example.com', password: PASSWORD })).status).toBe(429)
    t.clock.now += MINUTE - 1000
    expect((await c.post('/api/auth/login', { email: 'rl@example.com', password: PASSWORD })).status).toBe(429)
    t.clock.now += 1000
    const res = await c.post('/api/auth/login', { email: 'rl@example.com', password: PASSWORD })
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit-remaining')).toBe('4')
  })

  it('does not spend API-limit budget on login attempts', async () => {
    nextHour()
    const res = await new Client(t.url).post('/api/auth/login', { email: 'rl@example.com', password: PASSWORD })
    expect(res.headers.get('ratelimit-limit')).toBe('5')
  })
})

describe('register: 3 per hour per address', () => {
  it('answers the 4th attempt within the hour with 429, then opens an hour later', async () => {
    nextHour()
    const body = { name: 'N', email: 'new@example.com', password: PASSWORD, inviteCode: 'bogus' }
    for (let i = 1; i <= 3; i++) {
      const res = await new Client(t.url).post('/api/auth/register', body)
      expect(res.status).toBe(400)
      expect(rateHeaders(res.headers)).toEqual({ limit: '3', remaining: String(3 - i), reset: '3600', retryAfter: null })
    }
    t.clock.now += 10 * MINUTE
    const fourth = await new Client(t.url).post('/api/auth/register', body)
    expect(fourth.status).toBe(429)
    expect(fourth.body).toEqual({ error: 'Too many sign-up attempts; try again in 3000 seconds.', code: 'RATE_LIMITED' })
    expect(rateHeaders(fourth.headers)).toEqual({ limit: '3', remaining: '0', reset: '3000', retryAfter: '3000' })
    t.clock.now += 50 * MINUTE
    expect((await new Client(t.url).post('/api/auth/register', body)).status).toBe(400)
  })
})

describe('API: 60 per minute, per signed-in user', () => {
  it('gives each user their own 60', async () => {
    nextHour()
    const alice = await sessionFor('alice@example.com')
    const bob = await sessionFor('bob@example.com')
    for (let i = 1; i <= 60; i++) {
      const res = await alice.get('/api/auth/me')
      expect(res.status).toBe(200)
      if (i === 1 || i === 60) expect(rateHeaders(res.headers)).toMatchObject({ limit: '60', remaining: String(60 - i) })
    }
    const over = await alice.get('/api/auth/me')
    expect(over.status).toBe(429)
    expect(over.body).toEqual({ error: expect.stringMatching(/^Too many requests; try again in \d+ seconds\.$/), code: 'RATE_LIMITED' })
    expect(Number(over.headers.get('retry-after'))).toBe(60)
    const forBob = await bob.get('/api/auth/me')
    expect(forBob.status).toBe(200)
    expect(forBob.headers.get('ratelimit-remaining')).toBe('59')
  })

  it('follows the user, not the address: a second address does not give more', async () => {
    nextHour()
    const carol = await sessionFor('carol@example.com')
    const me = (localAddress: string) =>
      rawRequest(`${t.url}/api/auth/me`, { localAddress, headers: { cookie: carol.cookie! } })
    for (let i = 0; i < 30; i++) expect((await me('127.0.0.1')).status).toBe(200)
    for (let i = 0; i < 30; i++) expect((await me('127.0.0.3')).status).toBe(200)
    expect((await me('127.0.0.4')).status).toBe(429)
  })

  it('counts per address when signed out', async () => {
    nextHour()
    const health = (localAddress: string) => rawRequest(`${t.url}/api/health`, { localAddress })
    for (let i = 0; i < 60; i++) expect((await health('127.0.0.5')).status).toBe(200)
    const over = await health('127.0.0.5')
    expect(over.status).toBe(429)
    expect(over.json().code).toBe('RATE_LIMITED')
    expect(over.headers['retry-after']).toBe('60')
    expect((await health('127.0.0.6')).status).toBe(200)
  })

  it('counts signed-out requests that are refused with 401 as well', async () => {
    nextHour()
    const me = () => rawRequest(`${t.url}/api/auth/me`, { localAddress: '127.0.0.7', headers: { cookie: 'token=forged.token.value' } })
    for (let i = 0; i < 60; i++) expect((await me()).status).toBe(401)
    expect((await me()).status).toBe(429)
  })

  it('resets with the window', async () => {
    nextHour()
    const dave = await sessionFor('dave@example.com')
    for (let i = 0; i < 60; i++) await dave.get('/api/auth/me')
    expect((await dave.get('/api/auth/me')).status).toBe(429)
    t.clock.now += MINUTE
    const res = await dave.get('/api/auth/me')
    expect(res.status).toBe(200)
    expect(res.headers.get('ratelimit-remaining')).toBe('59')
  })
})
