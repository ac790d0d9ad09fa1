import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../src-shared/errors.ts'
import { createHttpApp, type AppEnv } from '../../src-main/http/index.ts'
import { Client, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { rawRequest } from './raw-request.ts'

const LIMIT = 2048
let t: TestServer
let admin: Client
beforeAll(async () => {
  t = await startTestServer({ env: { SHEAF_BODY_LIMIT_BYTES: String(LIMIT) } })
  admin = await signedIn(t, 'admin')
})
afterAll(() => t.close())

describe('error shapes', () => {
  it('unknown /api routes answer 404 NOT_FOUND as JSON, never HTML', async () => {
    for (const [method, path] of [['GET', '/api/nope'], ['POST', '/api/nope/deeper'], ['DELETE', '/api/auth/nope']]) {
      const res = await admin.request(method, path)
      expect(res.status).toBe(404)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(res.body).toEqual({ error: `No API endpoint ${method} ${path}.`, code: 'NOT_FOUND' })
    }
  })

  it('an unknown /api route without a session is 401 (the gate comes first)', async () => {
    const res = await new Client(t.url).get('/api/nope')
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('UNAUTHORIZED')
  })

  it('malformed JSON is 400 VALIDATION_ERROR naming the body', async () => {
    const res = await admin.post('/api/users/invite', '{"role": "viewer",', { 'content-type': 'application/json' })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'body' } })
    expect(res.body.error).toMatch(/not valid JSON/)
  })

  it('a JSON value of the wrong shape is 400 naming the field', async () => {
    const arr = await admin.post('/api/users/invite', '[1,2]', { 'content-type': 'application/json' })
    expect(arr.status).toBe(400)
    expect(arr.body.code).toBe('VALIDATION_ERROR')
    const wrong = await admin.post('/api/users/invite', { role: 7 })
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'role' } })
    expect(wrong.body.error).toMatch(/^role: /)
  })

  describe(`bodies over SHEAF_BODY_LIMIT_BYTES (${LIMIT})`, () => {
    const big = JSON.stringify({ role: 'viewer', pad: 'x'.repeat(LIMIT) })

    it('refuses a body with a Content-Length over the limit: 400', async () => {
      const before = t.sheaf.auth.invites.list().length
      const res = await admin.post('/api/users/invite', big, { 'content-type': 'application/json' })
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ error: expect.stringMatching(/larger than the 2 KB limit/), code: 'VALIDATION_ERROR', details: { field: 'body' } })
      expect(t.sheaf.auth.invites.list()).toHaveLength(before)
    })

    it('refuses a streamed (chunked) body that grows past the limit: 400', async () => {
      const res = await rawRequest(`${t.url}/api/auth/login`, {
        method: 'POST',
        chunked: true,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@example.com', password: 'p'.repeat(LIMIT) }),
      })
      expect(res.status).toBe(400)
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'body' } })
    })

    it('refuses a PUT and a DELETE over the limit too; a GET or HEAD carries no body for the app, so it answers as without one', async () => {
      const put = await rawRequest(`${t.url}/api/settings`, { method: 'PUT', headers: { cookie: admin.cookie!, 'content-type': 'application/json' }, body: big })
      expect(put.status).toBe(400)
      expect(put.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'body' } })
      const del = await rawRequest(`${t.url}/api/bookmarks/1`, { method: 'DELETE', headers: { cookie: admin.cookie!, 'content-type': 'application/json' }, body: big })
      expect(del.status).toBe(400)
      expect(del.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'body' } })
      const get = await rawRequest(`${t.url}/api/settings`, { headers: { cookie: admin.cookie!, 'content-type': 'application/json' }, body: big })
      expect(get.status).toBe(200)
      expect(get.json()).toMatchObject({ provider: 'local' })
      const head = await rawRequest(`${t.url}/api/settings`, { method: 'HEAD', headers: { cookie: admin.cookie! }, body: big })
      expect(head.status).toBe(200)
    })

    it('accepts a body just under the limit', async () => {
      const body = JSON.stringify({ role: 'viewer', pad: 'x'.repeat(LIMIT - 40) })
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(LIMIT)
      expect((await admin.post('/api/users/invite', body, { 'content-type': 'application/json' })).status).toBe(201)
    })
  })

  it('an unexpected exception is 500 INTERNAL_ERROR without the message or a stack trace, and is logged', async () => {
    const logged: { msg: string; err: unknown }[] = []
    const boom = new Hono<AppEnv>()
      .get('/', () => {
        throw new Error('database file /secret/path is corrupt')
      })
      .get('/expected', () => {
        throw new AppError('NOT_FOUND', 'No such thing.')
      })
    const app = createHttpApp({
      config: t.sheaf.config,
      auth: t.sheaf.auth,
      clock: () => t.clock.now,
      logError: (msg, err) => logged.push({ msg, err }),
      allowedHosts: () => [],
      routes: [{ path: '/boom', routes: boom }],
    })
    const headers = { host: 'localhost', cookie: admin.cookie! }
    const res = await app.request('/api/boom', { headers })
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({ error: 'Something went wrong on the server; it has been logged.', code: 'INTERNAL_ERROR' })
    expect(text).not.toMatch(/secret|corrupt|at |\.ts/)
    expect(logged).toHaveLength(1)
    expect(logged[0].msg).toBe('GET /api/boom failed')
    expect((logged[0].err as Error).message).toContain('corrupt')

    const expected = await app.request('/api/boom/expected', { headers })
    expect(expected.status).toBe(404)
    expect(await expected.json()).toEqual({ error: 'No such thing.', code: 'NOT_FOUND' })
    expect(logged).toHaveLength(1)
  })
})

describe('security headers', () => {
  const check = (h: Headers) => {
    const csp = h.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("base-uri 'none'")
    expect(h.get('x-content-type-options')).toBe('nosniff')
    expect(h.get('referrer-policy')).toBe('no-referrer')
    expect(h.get('x-frame-options')).toBe('DENY')
    expect(h.get('cross-origin-opener-policy')).toBe('same-origin')
  }

  it('are sent on the UI', async () => {
    const res = await new Client(t.url).get('/')
    check(res.headers)
  })

  it('are sent on API answers, errors included', async () => {
    check((await new Client(t.url).get('/api/health')).headers)
    check((await new Client(t.url).get('/api/auth/me')).headers) // 401
    check((await admin.get('/api/nope')).headers) // 404
  })

  it('no CORS: a foreign origin gets no Access-Control-Allow-Origin', async () => {
    const res = await admin.get('/api/users', { origin: 'http://evil.example' })
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })
})
