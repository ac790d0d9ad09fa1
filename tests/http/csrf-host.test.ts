import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CSRF_HEADER } from '../../src-main/http/index.ts'
import { Client, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { rawRequest } from './raw-request.ts'

let t: TestServer
let admin: Client
beforeAll(async () => {
  t = await startTestServer({ env: { SHEAF_ALLOWED_HOSTS: 'sheaf.lan, 192.168.1.20' } })
  admin = await signedIn(t, 'admin')
})
afterAll(() => t.close())

describe('CSRF guard on state-changing API requests', () => {
  const invite = (headers: Record<string, string>) => admin.post('/api/users/invite', { role: 'viewer' }, headers)

  it('is named X-Sheaf-Request', () => {
    expect(CSRF_HEADER).toBe('X-Sheaf-Request')
  })

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling host)', { 'sec-fetch-site': 'same-site', [CSRF_HEADER]: '1' }],
    ['a foreign Origin', { origin: 'http://evil.example', [CSRF_HEADER]: '1' }],
    ['Origin: null', { origin: 'null', [CSRF_HEADER]: '1' }],
    ['a same-host Origin on another port', { origin: 'http://127.0.0.1:1', [CSRF_HEADER]: '1' }],
    ['the same Origin but no X-Sheaf-Request', { origin: 'ORIGIN' }],
    ['Sec-Fetch-Site: same-origin but no X-Sheaf-Request', { 'sec-fetch-site': 'same-origin' }],
  ])('refuses %s with 403 FORBIDDEN', async (_name, headers) => {
    const before = t.sheaf.auth.invites.list().length
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'ORIGIN' ? t.url : v]))
    const res = await invite(h)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: expect.any(String), code: 'FORBIDDEN' })
    expect(t.sheaf.auth.invites.list()).toHaveLength(before)
  })

  it.each([
    ['the same Origin with X-Sheaf-Request', { origin: 'ORIGIN', [CSRF_HEADER]: '1' }],
    ['Sec-Fetch-Site: same-origin with X-Sheaf-Request', { 'sec-fetch-site': 'same-origin', origin: 'ORIGIN', [CSRF_HEADER]: '1' }],
    ['Sec-Fetch-Site: none (typed by the user) with X-Sheaf-Request', { 'sec-fetch-site': 'none', [CSRF_HEADER]: '1' }],
    ['a script with neither Origin nor Sec-Fetch-* headers', {}],
  ])('lets through %s', async (_name, headers) => {
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v === 'ORIGIN' ? t.url : v]))
    const res = await invite(h)
    expect(res.status).toBe(201)
  })

  it('guards public routes too (no login CSRF)', async () => {
    const res = await new Client(t.url).post('/api/auth/login', { email: 'a@example.com', password: 'whatever1' }, { 'sec-fetch-site': 'cross-site' })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('FORBIDDEN')
  })

  it('does not apply to safe methods', async () => {
    const res = await admin.get('/api/users', { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' })
    expect(res.status).toBe(200)
  })

  it('applies to PATCH and DELETE as well', async () => {
    const victim = await t.sheaf.auth.users.create({ email: 'target@example.com', name: 'T', role: 'viewer', password: 'password1' })
    const patch = await admin.request('PATCH', `/api/users/${victim.id}`, { role: 'admin' }, { origin: 'http://evil.example' })
    expect(patch.status).toBe(403)
    const del = await admin.request('DELETE', `/api/users/${victim.id}`, undefined, { 'sec-fetch-site': 'cross-site' })
    expect(del.status).toBe(403)
    expect(t.sheaf.auth.users.get(victim.id).role).toBe('viewer')
  })
})

describe('Host check (DNS rebinding defence)', () => {
  const port = () => new URL(t.url).port
  const get = (host: string | null, path = '/api/health') =>
    rawRequest(`${t.url}${path}`, host === null ? { noHost: true } : { headers: { host } })

  it.each(['evil.example', 'evil.example:PORT', 'localhost.evil.example', '127.0.0.1.evil.example', '10.0.0.5:PORT'])(
    'refuses Host: %s with 403 FORBIDDEN JSON', async (host) => {
      const res = await get(host.replace('PORT', port()))
      expect(res.status).toBe(403)
      expect(res.headers['content-type']).toMatch(/^application\/json/)
      expect(res.json()).toEqual({ error: expect.stringContaining('not served here'), code: 'FORBIDDEN' })
    })

  it('refuses a request without a Host header', async () => {
    // Node's HTTP server answers 400 itself (requireHostHeader); the app-level check covers app.request().
    expect((await get(null)).status).toBe(400)
    const res = await t.sheaf.app.request('/api/health')
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ code: 'FORBIDDEN' })
  })

  it('refuses UI paths for a foreign Host as well', async () => {
    const res = await get('evil.example', '/')
    expect(res.status).toBe(403)
  })

  it.each(['localhost', 'localhost:PORT', 'LOCALHOST:PORT', '127.0.0.1:PORT', '127.0.0.1', '[::1]:PORT', 'app.localhost:PORT'])(
    'serves Host: %s', async (host) => {
      const res = await get(host.replace('PORT', port()))
      expect(res.status).toBe(200)
      expect(res.json()).toEqual({ ok: true })
    })

  it('serves the hosts named in SHEAF_ALLOWED_HOSTS', async () => {
    expect((await get(`sheaf.lan:${port()}`)).status).toBe(200)
    expect((await get('192.168.1.20')).status).toBe(200)
    expect((await get('sheaf.lan.evil.example')).status).toBe(403)
  })

  it('follows hosts added and removed at run time (LAN sharing)', async () => {
    expect((await get('laptop.local')).status).toBe(403)
    t.sheaf.extraHosts.add('laptop.local')
    expect((await get('laptop.local')).status).toBe(200)
    t.sheaf.extraHosts.delete('laptop.local')
    expect((await get('laptop.local')).status).toBe(403)
  })
})
