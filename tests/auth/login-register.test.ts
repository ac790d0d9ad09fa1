import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zAuthResponse, zInviteCreated } from '../../src-shared/schemas/users.ts'
import { Client, PASSWORD, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'

const DAY_MS = 86_400_000

let t: TestServer
let admin: Client
beforeAll(async () => {
  t = await startTestServer()
  admin = await signedIn(t, 'admin', 'boss@example.com')
})
afterAll(() => t.close())

const invite = async (role: string, body: object = {}) => {
  const res = await admin.post('/api/users/invite', { role, ...body })
  expect(res.status).toBe(201)
  return zInviteCreated.parse(res.body)
}
const register = (body: Record<string, unknown>) => new Client(t.url).post('/api/auth/register', body)
let n = 0
const fresh = () => `person${++n}@example.com`

describe('login', () => {
  beforeAll(async () => {
    await t.sheaf.auth.users.create({ email: 'known@example.com', name: 'K', role: 'member', password: PASSWORD })
  })

  it('answers 401 with the same body for an unknown e-mail and a wrong password', async () => {
    const unknown = await new Client(t.url).post('/api/auth/login', { email: 'nobody@example.com', password: PASSWORD })
    const wrong = await new Client(t.url).post('/api/auth/login', { email: 'known@example.com', password: 'wrong password' })
    expect(unknown.status).toBe(401)
    expect(wrong.status).toBe(401)
    expect(unknown.body).toEqual({ error: 'The e-mail or password is not right.', code: 'UNAUTHORIZED' })
    expect(wrong.body).toEqual(unknown.body)
    expect(unknown.headers.get('set-cookie')).toBeNull()
    expect(wrong.headers.get('set-cookie')).toBeNull()
  })

  it('normalises the e-mail (case and surrounding spaces)', async () => {
    const res = await new Client(t.url).post('/api/auth/login', { email: '  KNOWN@Example.COM ', password: PASSWORD })
    expect(res.status).toBe(200)
    expect(res.body.user.email).toBe('known@example.com')
  })

  it('does not accept a password that only matches in its first 72 bytes', async () => {
    const pw = 'p'.repeat(72)
    await t.sheaf.auth.users.create({ email: 'long@example.com', name: 'L', role: 'viewer', password: pw })
    expect((await new Client(t.url).post('/api/auth/login', { email: 'long@example.com', password: pw })).status).toBe(200)
    const res = await new Client(t.url).post('/api/auth/login', { email: 'long@example.com', password: pw + 'extra' })
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('UNAUTHORIZED')
  })

  it.each([
    [{ password: PASSWORD }, 'email'],
    [{ email: 'known@example.com' }, 'password'],
    [{ email: 42, password: PASSWORD }, 'email'],
    [{ email: 'known@example.com', password: ['x'] }, 'password'],
  ])('refuses a malformed body %j naming the field', async (body, field) => {
    const res = await new Client(t.url).post('/api/auth/login', body)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } })
    expect(res.body.error).toContain(field)
  })
})

describe('register', () => {
  it('answers 201 with the user, the role from the invite, and the session cookie', async () => {
    const { inviteCode } = await invite('viewer')
    const c = new Client(t.url)
    const res = await c.post('/api/auth/register', { name: 'Vera', email: ' Vera@Example.com ', password: PASSWORD, inviteCode })
    expect(res.status).toBe(201)
    expect(zAuthResponse.parse(res.body).user).toEqual({ id: expect.any(Number), name: 'Vera', email: 'vera@example.com', role: 'viewer' })
    expect(res.headers.get('set-cookie')).toMatch(/^token=[^;]+; HttpOnly; Secure; SameSite=Strict; Path=\/; Max-Age=86400$/)
    expect((await c.get('/api/auth/me')).body.user.email).toBe('vera@example.com')
    const login = await new Client(t.url).post('/api/auth/login', { email: 'vera@example.com', password: PASSWORD })
    expect(login.status).toBe(200)
  })

  it.each(['viewer', 'member', 'admin'])('gives the %s role the invite names', async (role) => {
    const { inviteCode } = await invite(role)
    const res = await register({ name: 'R', email: fresh(), password: PASSWORD, inviteCode })
    expect(res.status).toBe(201)
    expect(res.body.user.role).toBe(role)
  })

  it('accepts an invite code only once', async () => {
    const { inviteCode } = await invite('member')
    expect((await register({ name: 'A', email: fresh(), password: PASSWORD, inviteCode })).status).toBe(201)
    const second = await register({ name: 'B', email: fresh(), password: PASSWORD, inviteCode })
    expect(second.status).toBe(400)
    expect(second.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'inviteCode' } })
    expect(second.headers.get('set-cookie')).toBeNull()
  })

  it('refuses an expired code (7 days by default; expiresInDays otherwise)', async () => {
    const start = t.clock.now
    const week = await invite('viewer')
    const oneDay = await invite('viewer', { expiresInDays: 1 })
    expect(Date.parse(week.expiresAt)).toBe(start + 7 * DAY_MS)
    expect(Date.parse(oneDay.expiresAt)).toBe(start + DAY_MS)
    t.clock.now = start + DAY_MS + 1
    const late = await register({ name: 'L', email: fresh(), password: PASSWORD, inviteCode: oneDay.inviteCode })
    expect(late.status).toBe(400)
    expect(late.body.details.field).toBe('inviteCode')
    expect((await register({ name: 'W', email: fresh(), password: PASSWORD, inviteCode: week.inviteCode })).status).toBe(201)
    t.clock.now = start
  })

  it('refuses a code revoked by its value or by its id', async () => {
    const a = await invite('member')
    const b = await invite('member')
    const byCode = await admin.delete(`/api/users/invites/${encodeURIComponent(a.inviteCode)}`)
    expect(byCode.status).toBe(200)
    expect(byCode.body.invite).toMatchObject({ id: a.id, status: 'revoked' })
    const byId = await admin.delete(`/api/users/invites/${b.id}`)
    expect(byId.body.invite).toMatchObject({ id: b.id, status: 'revoked' })
    for (const code of [a.inviteCode, b.inviteCode]) {
      const res = await register({ name: 'X', email: fresh(), password: PASSWORD, inviteCode: code })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(/not valid/)
    }
  })

  it('refuses an unknown code', async () => {
    const res = await register({ name: 'U', email: fresh(), password: PASSWORD, inviteCode: 'no-such-code' })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'inviteCode' } })
  })

  it('refuses a duplicate e-mail with 400 naming the field, and leaves the invite unspent', async () => {
    const { inviteCode, id } = await invite('member')
    const res = await register({ name: 'Dup', email: 'BOSS@example.com', password: PASSWORD, inviteCode })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'email' } })
    expect(res.body.error).toContain('boss@example.com')
    const list = await admin.get('/api/users/invites')
    expect(list.body.invites.find((i: { id: number }) => i.id === id).status).toBe('active')
  })

  describe('password rules', () => {
    const attempt = async (password: string) =>
      register({ name: 'P', email: fresh(), password, inviteCode: (await invite('viewer')).inviteCode })

    it('refuses 7 characters and accepts 8', async () => {
      const short = await attempt('1234567')
      expect(short.status).toBe(400)
      expect(short.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'password' } })
      expect(short.body.error).toMatch(/at least 8/)
      expect((await attempt('12345678')).status).toBe(201)
    })

    it('counts characters, not bytes, for the minimum', async () => {
      expect((await attempt('ééééééé')).status).toBe(400) // 7 characters, 14 bytes
      expect((await attempt('éééééééé')).status).toBe(201)
    })

    it('accepts 72 bytes and refuses 73', async () => {
      expect((await attempt('a'.repeat(72))).status).toBe(201)
      const long = await attempt('a'.repeat(73))
      expect(long.status).toBe(400)
      expect(long.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'password' } })
      expect(long.body.error).toMatch(/72 bytes/)
    })

    it('measures multi-byte characters in bytes for the maximum', async () => {
      expect((await attempt('€'.repeat(24))).status).toBe(201) // 24 characters, 72 bytes
      expect((await attempt('€'.repeat(25))).status).toBe(400) // 25 characters, 75 bytes
      expect((await attempt('😀'.repeat(18))).status).toBe(201) // 72 bytes
      expect((await attempt('😀'.repeat(19))).status).toBe(400) // 76 bytes
    })
  })

  it.each([
    [{ email: 'a@example.com', password: PASSWORD, inviteCode: 'x' }, 'name'],
    [{ name: 'N', email: 'not-an-email', password: PASSWORD, inviteCode: 'x' }, 'email'],
    [{ name: 'N', email: 'a@example.com', password: PASSWORD }, 'inviteCode'],
    [{ name: 'N', email: 'a@example.com', password: 12345678, inviteCode: 'x' }, 'password'],
  ])('refuses %j naming %s', async (body, field) => {
    const res = await register(body)
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } })
  })
})
