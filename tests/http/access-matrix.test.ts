import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Role } from '../../src-shared/roles.ts'
import { Client, PASSWORD, clientsByRole, type ApiResponse } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

/**
 * The access table of the spec (section 5), one row per concrete request. "o" = allowed, "-" = refused
 * with 403. The allowed sets are written out from the spec, not read from src-shared/roles.ts, so this
 * test checks the permission table against the contract. Wildcard rows ("any method on
 * /api/settings/*", "POST /api/import/*", "/api/users/*") are spelled out as the routes that exist.
 * A row whose route is missing fails (never a todo or a skip): a deleted route must not read as pending.
 */
interface Row {
  spec: string
  method: string
  path: string | ((t: TestServer) => Promise<string>)
  body?: unknown | (() => unknown)
  allowed: readonly Role[]
}

const ALL: readonly Role[] = ['viewer', 'member', 'admin']
const MEMBER_UP: readonly Role[] = ['member', 'admin']
const ADMIN: readonly Role[] = ['admin']

const importForm = () => {
  const form = new FormData()
  form.append('file', new Blob(['[]'], { type: 'application/json' }), 'bookmarks.json')
  return form
}
const freshUser = async (t: TestServer) =>
  `/api/users/${(await t.sheaf.auth.users.create({ email: `m${Math.random().toString(36).slice(2)}@example.com`, name: 'M', role: 'viewer', password: PASSWORD })).id}`
/** Two fresh posts for a merge: the path names one, the body (read after the path) the other. */
let mergeOther = 0
const freshMerge = async (t: TestServer) => {
  const id = () => String(Math.floor(Math.random() * 1e12))
  const bookmarks = [id(), id()].map((postId) => ({
    postId, text: `post ${postId}`, authorHandle: 'a', authorName: 'A', postCreatedAt: '2026-01-01T00:00:00.000Z', urls: [], media: [],
    engagement: { likes: null, reposts: null, replies: null, quotes: null, bookmarks: null, views: null }, lang: null, conversationId: null,
    inReplyToPostId: null, quoted: null, source: 'bookmark', rawJson: '{}', importedAt: '2026-01-01T00:00:00.000Z',
  }))
  await t.sheaf.library.importStream({
    input: Buffer.from(JSON.stringify({ format: 'sheaf-export', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', categories: [], bookmarks })),
    fileName: 'merge.json', userId: null,
  })
  const [a, b] = bookmarks.map((x) => sqliteOf(t.sheaf.db).prepare('SELECT id FROM bookmarks WHERE post_id = ?').pluck().get(x.postId) as number)
  mergeOther = b
  return `/api/bookmarks/${a}/merge`
}
const freshInvite = async (t: TestServer) => `/api/users/invites/${t.sheaf.auth.invites.create({ role: 'viewer', createdBy: null }).id}`

export const ACCESS_TABLE: Row[] = [
  { spec: 'GET /api/bookmarks', method: 'GET', path: '/api/bookmarks', allowed: ALL },
  // Not in the spec: merging removes a post as a bookmark, so it takes what deleting one takes (bookmarks:delete).
  { spec: 'POST /api/bookmarks/:id/merge (as DELETE /api/bookmarks/:id)', method: 'POST', path: freshMerge, body: () => ({ otherId: mergeOther }), allowed: MEMBER_UP },
  { spec: 'GET /api/stats', method: 'GET', path: '/api/stats', allowed: ALL },
  { spec: 'GET /api/mindmap', method: 'GET', path: '/api/mindmap', allowed: ALL },
  { spec: 'GET /api/search/ai', method: 'GET', path: '/api/search/ai?q=rust', allowed: MEMBER_UP },
  { spec: 'GET /api/export', method: 'GET', path: '/api/export', allowed: MEMBER_UP },
  { spec: 'POST /api/categorize', method: 'POST', path: '/api/categorize', body: {}, allowed: MEMBER_UP },
  { spec: 'POST /api/import/*', method: 'POST', path: '/api/import', body: importForm, allowed: ADMIN },
  { spec: 'POST /api/import/* (and the rest of /api/import)', method: 'GET', path: '/api/import/history', allowed: ADMIN },
  { spec: 'any method on /api/settings/*', method: 'GET', path: '/api/settings/cli-status', allowed: ADMIN },
  { spec: 'any method on /api/settings/*', method: 'POST', path: '/api/settings/test', body: { provider: 'local' }, allowed: ADMIN },
  { spec: 'any method on /api/settings/*', method: 'GET', path: '/api/settings', allowed: ADMIN },
  { spec: 'any method on /api/settings/*', method: 'PUT', path: '/api/settings', body: {}, allowed: ADMIN },
  { spec: 'any method on /api/users/*', method: 'GET', path: '/api/users', allowed: ADMIN },
  { spec: 'any method on /api/users/*', method: 'POST', path: '/api/users/invite', body: { role: 'viewer' }, allowed: ADMIN },
  { spec: 'any method on /api/users/*', method: 'GET', path: '/api/users/invites', allowed: ADMIN },
  { spec: 'any method on /api/users/*', method: 'DELETE', path: freshInvite, allowed: ADMIN },
  { spec: 'any method on /api/users/*', method: 'GET', path: freshUser, allowed: ADMIN },
  { spec: 'any method on /api/users/*', method: 'PATCH', path: freshUser, body: { role: 'member' }, allowed: ADMIN },
  { spec: 'any method on /api/users/*', method: 'DELETE', path: freshUser, allowed: ADMIN },
  // Not in the spec (issue 15): a person's own read/starred/hidden, review and digest change nothing shared.
  { spec: 'PUT /api/bookmarks/:id/state (own state)', method: 'PUT', path: '/api/bookmarks/1/state', body: { read: true }, allowed: ALL },
  { spec: 'POST /api/bookmarks/state (own state)', method: 'POST', path: '/api/bookmarks/state', body: { ids: [1], read: true }, allowed: ALL },
  { spec: 'GET /api/review (own review)', method: 'GET', path: '/api/review', allowed: ALL },
  { spec: 'POST /api/review/:id (own review)', method: 'POST', path: '/api/review/1', body: { outcome: 'keep' }, allowed: ALL },
  { spec: 'GET /api/digest', method: 'GET', path: '/api/digest?days=7', allowed: ALL },
]

let t: TestServer
let clients: Record<Role, Client>
beforeAll(async () => {
  t = await startTestServer()
  clients = await clientsByRole(t)
})
afterAll(() => t.close())

async function call(c: Client, row: Row): Promise<ApiResponse> {
  const path = typeof row.path === 'function' ? await row.path(t) : row.path
  const body = typeof row.body === 'function' ? (row.body as () => unknown)() : row.body
  return c.request(row.method, path, body)
}

const isMissingRoute = (res: ApiResponse) =>
  res.status === 404 && typeof res.body?.error === 'string' && res.body.error.startsWith('No API endpoint')

describe('access by endpoint (spec section 5)', () => {
  for (const row of ACCESS_TABLE) {
    const label = `${row.method} ${typeof row.path === 'string' ? row.path : '<id>'} (${row.spec})`
    describe(label, () => {
      for (const role of ALL) {
        const allowed = row.allowed.includes(role)
        const name = `${role}: ${allowed ? 'allowed' : '403 FORBIDDEN'}`
        it(name, async () => {
          const res = await call(clients[role], row)
          if (allowed) {
            expect(isMissingRoute(res), `route missing: ${JSON.stringify(res.body)}`).toBe(false)
            expect([401, 403], `${res.status} ${JSON.stringify(res.body)}`).not.toContain(res.status)
            expect(res.status, JSON.stringify(res.body)).toBeLessThan(500)
          } else {
            expect(res.status).toBe(403)
            expect(res.body).toEqual({ error: expect.stringContaining(`As a ${role} you can `), code: 'FORBIDDEN' })
            // Plain words: what only whom can do, never the permission's code ("settings:manage").
            expect(res.body.error).toMatch(/^Only (members and admins|admins) can /)
            expect(res.body.error).not.toMatch(/\b[a-z]+:[a-z]+\b/)
          }
        })
      }
      it('no session: 401 UNAUTHORIZED', async () => {
        const res = await call(new Client(t.url), row)
        expect(res.status).toBe(401)
        expect(res.body).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED' })
      })
    })
  }
})

describe('public routes (spec: login and register need no session)', () => {
  it('POST /api/auth/login answers without a session (401 for bad credentials, not for a missing cookie)', async () => {
    const res = await new Client(t.url).post('/api/auth/login', { email: 'x@example.com', password: 'nope nope' })
    expect(res.status).toBe(401)
    expect(res.body.error).toBe('The e-mail or password is not right.')
  })

  it('POST /api/auth/register answers without a session (400 for a bad invite code)', async () => {
    const res = await new Client(t.url).post('/api/auth/register', { name: 'N', email: 'n@example.com', password: PASSWORD, inviteCode: 'bad' })
    expect(res.status).toBe(400)
    expect(res.body.details.field).toBe('inviteCode')
  })
})
