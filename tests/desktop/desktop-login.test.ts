import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCAL_LOGIN_TTL_MS } from '../../src-main/local-login/index.ts'
import { Client, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'

let t: TestServer
beforeAll(async () => {
  t = await startTestServer()
})
afterAll(() => t.close())

describe('desktop sign-in with a one-time local token', () => {
  it('before setup: the token is accepted but signs nobody in (the window shows setup)', async () => {
    const c = new Client(t.url)
    const res = await c.post('/api/auth/desktop', { token: t.sheaf.localLogin.mint() })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ user: null, needsSetup: true })
    expect(res.headers.get('set-cookie')).toBeNull()
  })

  it('signs the window in as the first admin, once', async () => {
    await signedIn(t, 'admin', 'first@example.com')
    await signedIn(t, 'admin', 'second@example.com')
    const token = t.sheaf.localLogin.mint()
    const c = new Client(t.url)
    const res = await c.post('/api/auth/desktop', { token })
    expect(res.status).toBe(200)
    expect(res.body.user).toMatchObject({ email: 'first@example.com', role: 'admin' })
    expect(res.headers.get('set-cookie')).toMatch(/^token=[^;]+; HttpOnly; Secure; SameSite=Strict; Path=\/; Max-Age=86400$/)
    expect((await c.get('/api/auth/me')).body.user.email).toBe('first@example.com')
    const again = await new Client(t.url).post('/api/auth/desktop', { token })
    expect(again.status).toBe(401)
    expect(again.body.code).toBe('UNAUTHORIZED')
  })

  it('refuses an unknown or expired token', async () => {
    expect((await new Client(t.url).post('/api/auth/desktop', { token: 'x'.repeat(43) })).status).toBe(401)
    const token = t.sheaf.localLogin.mint()
    t.clock.now += LOCAL_LOGIN_TTL_MS + 1
    expect((await new Client(t.url).post('/api/auth/desktop', { token })).status).toBe(401)
    expect((await new Client(t.url).post('/api/auth/desktop', {})).status).toBe(400)
  })

  it('refuses a client that is not on this machine, and the token is spent', async () => {
    const token = t.sheaf.localLogin.mint()
    // app.request has no socket: the address is unknown, so it is not loopback.
    const res = await t.sheaf.app.request('/api/auth/desktop', {
      method: 'POST', headers: { host: 'localhost', 'content-type': 'application/json' }, body: JSON.stringify({ token }),
    })
    expect(res.status).toBe(403)
    expect(res.headers.get('set-cookie')).toBeNull()
    expect((await new Client(t.url).post('/api/auth/desktop', { token })).status).toBe(401)
  })

  it('first load: GET with the token sets the cookie and redirects to the UI; a spent token just redirects', async () => {
    const token = t.sheaf.localLogin.mint()
    const c = new Client(t.url)
    const res = await c.get(`/api/auth/desktop?token=${token}`)
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/')
    expect(res.headers.get('set-cookie')).toMatch(/^token=/)
    const reused = await new Client(t.url).get(`/api/auth/desktop?token=${token}`)
    expect(reused.status).toBe(303)
    expect(reused.headers.get('set-cookie')).toBeNull()
    expect(t.sheaf.localLogin.pendingCount()).toBe(0)
  })
})
