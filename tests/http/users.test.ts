import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { zInvite, zInviteCreated, zUser } from '../../src-shared/schemas/users.ts'
import { Client, PASSWORD, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'

let t: TestServer
let admin: Client
let adminId: number
beforeAll(async () => {
  t = await startTestServer()
  admin = await signedIn(t, 'admin', 'admin@example.com')
  adminId = (await admin.get('/api/auth/me')).body.user.id
})
afterAll(() => t.close())

const makeUser = (role: 'admin' | 'member' | 'viewer', email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`) =>
  t.sheaf.auth.users.create({ email, name: `${role} person`, role, password: PASSWORD })

describe('/api/users (admin)', () => {
  it('lists users without password hashes', async () => {
    const res = await admin.get('/api/users')
    expect(res.status).toBe(200)
    for (const u of res.body.users) expect(zUser.strict().parse(u)).toBeTruthy()
    expect(res.body.users.map((u: { email: string }) => u.email)).toContain('admin@example.com')
  })

  it('gets one user, 404 for an unknown id, 400 for a non-numeric id', async () => {
    const u = await makeUser('viewer')
    expect((await admin.get(`/api/users/${u.id}`)).body).toEqual({ user: u })
    const missing = await admin.get('/api/users/999999')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: 'No user with id 999999.', code: 'NOT_FOUND' })
    const bad = await admin.get('/api/users/abc')
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'id' } })
  })

  it('changes a role (PATCH) and refuses an unknown role naming the field', async () => {
    const u = await makeUser('viewer')
    const res = await admin.patch(`/api/users/${u.id}`, { role: 'member' })
    expect(res.status).toBe(200)
    expect(res.body.user).toEqual({ ...u, role: 'member' })
    const bad = await admin.patch(`/api/users/${u.id}`, { role: 'owner' })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'role' } })
  })

  it('deletes a user (204), then 404', async () => {
    const u = await makeUser('member')
    const res = await admin.delete(`/api/users/${u.id}`)
    expect(res.status).toBe(204)
    expect(res.body).toBeNull()
    expect((await admin.delete(`/api/users/${u.id}`)).status).toBe(404)
  })
})

describe('/api/users/invite and /api/users/invites (admin)', () => {
  it('creates an invite: 201 with the code, id, role and expiry', async () => {
    const res = await admin.post('/api/users/invite', { role: 'member', expiresInDays: 3 })
    expect(res.status).toBe(201)
    const inv = zInviteCreated.parse(res.body)
    expect(inv.role).toBe('member')
    expect(inv.inviteCode).toMatch(/^[A-Za-z0-9_-]{27,}$/)
    expect(Date.parse(inv.expiresAt)).toBe(t.clock.now + 3 * 86_400_000)
  })

  it.each([[{}, 'role'], [{ role: 'root' }, 'role'], [{ role: 'viewer', expiresInDays: 0 }, 'expiresInDays'], [{ role: 'viewer', expiresInDays: 'soon' }, 'expiresInDays']])(
    'refuses %j naming %s', async (body, field) => {
      const res = await admin.post('/api/users/invite', body)
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field } })
    })

  it('lists invites with their status, never the code itself', async () => {
    const active = zInviteCreated.parse((await admin.post('/api/users/invite', { role: 'viewer' })).body)
    const used = zInviteCreated.parse((await admin.post('/api/users/invite', { role: 'viewer' })).body)
    const revoked = zInviteCreated.parse((await admin.post('/api/users/invite', { role: 'viewer' })).body)
    const expired = zInviteCreated.parse((await admin.post('/api/users/invite', { role: 'viewer', expiresInDays: 1 })).body)
    expect((await new Client(t.url).post('/api/auth/register', { name: 'U', email: 'used@example.com', password: PASSWORD, inviteCode: used.inviteCode })).status).toBe(201)
    expect((await admin.delete(`/api/users/invites/${revoked.id}`)).status).toBe(200)
    t.clock.now += 86_400_000 + 1
    const res = await (await signedIn(t, 'admin')).get('/api/users/invites') // the first admin's session has just ended
    t.clock.now -= 86_400_000 + 1
    expect(res.status).toBe(200)
    const byId = new Map(res.body.invites.map((i: unknown) => {
      const inv = zInvite.parse(i)
      return [inv.id, inv]
    }))
    expect(byId.get(active.id)).toMatchObject({ status: 'active', role: 'viewer', hint: active.inviteCode.slice(0, 4), createdBy: adminId, usedAt: null })
    expect(byId.get(used.id)).toMatchObject({ status: 'used', usedBy: expect.any(Number), usedAt: expect.any(String) })
    expect(byId.get(revoked.id)).toMatchObject({ status: 'revoked' })
    expect(byId.get(expired.id)).toMatchObject({ status: 'expired' })
    expect(JSON.stringify(res.body)).not.toContain(active.inviteCode)
  })

  it('revoking an unknown invite answers 404', async () => {
    const res = await admin.delete('/api/users/invites/unknown-code')
    expect(res.status).toBe(404)
    expect(res.body.code).toBe('NOT_FOUND')
  })
})

describe('the last admin', () => {
  it('cannot be demoted or deleted; can once another admin exists', async () => {
    const fresh = await startTestServer()
    try {
      const boss = await signedIn(fresh, 'admin', 'only@example.com')
      const id = (await boss.get('/api/auth/me')).body.user.id
      const demote = await boss.patch(`/api/users/${id}`, { role: 'member' })
      expect(demote.status).toBe(400)
      expect(demote.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringMatching(/last admin/) })
      const del = await boss.delete(`/api/users/${id}`)
      expect(del.status).toBe(400)
      expect(del.body.error).toMatch(/last admin/)
      expect((await boss.patch(`/api/users/${id}`, { role: 'admin' })).status).toBe(200) // admin → admin is no demotion

      const other = await fresh.sheaf.auth.users.create({ email: 'second@example.com', name: 'S', role: 'admin', password: PASSWORD })
      expect((await boss.patch(`/api/users/${other.id}`, { role: 'viewer' })).status).toBe(200)
      expect((await boss.patch(`/api/users/${other.id}`, { role: 'admin' })).status).toBe(200)
      expect((await boss.patch(`/api/users/${id}`, { role: 'member' })).status).toBe(200)
      expect(fresh.sheaf.auth.users.list().filter((u) => u.role === 'admin').map((u) => u.id)).toEqual([other.id])
    } finally {
      await fresh.close()
    }
  })
})

describe('changes take effect on the next request', () => {
  it('a demoted admin loses user management at once, a promoted viewer gains it', async () => {
    const u = await makeUser('admin')
    const c = new Client(t.url)
    expect((await c.post('/api/auth/login', { email: u.email, password: PASSWORD })).status).toBe(200)
    expect((await c.get('/api/users')).status).toBe(200)
    expect((await admin.patch(`/api/users/${u.id}`, { role: 'viewer' })).status).toBe(200)
    const after = await c.get('/api/users')
    expect(after.status).toBe(403)
    expect(after.body.code).toBe('FORBIDDEN')
    expect((await c.get('/api/auth/me')).body.user.role).toBe('viewer')
    await admin.patch(`/api/users/${u.id}`, { role: 'admin' })
    expect((await c.get('/api/users')).status).toBe(200)
  })

  it('a removed user is signed out at once', async () => {
    const u = await makeUser('member')
    const c = new Client(t.url)
    await c.post('/api/auth/login', { email: u.email, password: PASSWORD })
    expect((await c.get('/api/auth/me')).status).toBe(200)
    expect((await admin.delete(`/api/users/${u.id}`)).status).toBe(204)
    const res = await c.get('/api/auth/me')
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('UNAUTHORIZED')
  })

  it('a refresh after a role change carries the new role in the token', async () => {
    const u = await makeUser('viewer')
    const c = new Client(t.url)
    await c.post('/api/auth/login', { email: u.email, password: PASSWORD })
    await admin.patch(`/api/users/${u.id}`, { role: 'member' })
    const res = await c.post('/api/auth/refresh')
    expect(res.body.user.role).toBe('member')
    const payload = JSON.parse(Buffer.from(c.cookie!.split('.')[1], 'base64url').toString()) as { role: string }
    expect(payload.role).toBe('member')
  })
})

describe('every /api/users route refuses viewers and members (403) and strangers (401)', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/users'],
    ['GET', '/api/users/1'],
    ['PATCH', '/api/users/1', { role: 'admin' }],
    ['DELETE', '/api/users/1'],
    ['POST', '/api/users/invite', { role: 'admin' }],
    ['GET', '/api/users/invites'],
    ['DELETE', '/api/users/invites/1'],
  ]
  let clients: Record<'viewer' | 'member', Client>
  beforeAll(async () => {
    clients = { viewer: await signedIn(t, 'viewer'), member: await signedIn(t, 'member') }
  })

  it.each(routes)('%s %s', async (method, path, body) => {
    const before = t.sheaf.auth.users.list()
    for (const role of ['viewer', 'member'] as const) {
      const res = await clients[role].request(method, path, body)
      expect(res.status, `${role}`).toBe(403)
      expect(res.body).toEqual({ error: expect.stringContaining(`As a ${role} you can `), code: 'FORBIDDEN' })
    }
    const res = await new Client(t.url).request(method, path, body)
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('UNAUTHORIZED')
    expect(t.sheaf.auth.users.list()).toEqual(before)
  })
})
