import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../src-main/secrets/index.ts'
import { attachDatabase, detachDatabase, sqliteOf } from '../../src-main/store/connection.ts'
import { Client, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { tokenOf } from './token-tools.ts'

// The signing key's version, a user's row and the settings are kept in memory between requests
// (store/remembered.ts); each write below must be honoured by the very next request, never one late.

let t: TestServer
const secrets = createMemoryStore()
beforeAll(async () => {
  t = await startTestServer({ secrets })
})
afterAll(() => t.close())

const me = async (c: Client) => c.get('/api/auth/me')
const idOf = async (c: Client): Promise<number> => (await me(c)).body.user.id

/** A second connection to the server's library file, as another process (the CLI) would open. */
function otherConnection<T>(fn: (run: (sql: string, ...params: unknown[]) => void) => T): T {
  const other = attachDatabase(join(t.dataDir, 'sheaf.db'))
  try {
    return fn((sql, ...params) => sqliteOf(other).prepare(sql).run(...params))
  } finally {
    detachDatabase(other)
  }
}

describe('reads kept in memory between requests', () => {
  it('a role changed through the app is seen by the next request', async () => {
    const c = await signedIn(t, 'member')
    expect((await me(c)).body.user.role).toBe('member')
    t.sheaf.auth.users.setRole(await idOf(c), 'viewer')
    expect((await me(c)).body.user.role).toBe('viewer')
  })

  it('a role changed by another connection is seen by the next request', async () => {
    const c = await signedIn(t, 'member')
    const id = await idOf(c)
    expect((await me(c)).body.user.role).toBe('member')
    otherConnection((run) => run("UPDATE users SET role = 'viewer' WHERE id = ?", id))
    expect((await me(c)).body.user.role).toBe('viewer')
  })

  it('a user removed by another connection is refused at once', async () => {
    const c = await signedIn(t, 'viewer')
    const id = await idOf(c)
    expect((await me(c)).status).toBe(200)
    otherConnection((run) => run('DELETE FROM users WHERE id = ?', id))
    expect((await me(c)).status).toBe(401)
  })

  it('a rotated key refuses the old token at once', async () => {
    const c = await signedIn(t, 'member')
    expect((await me(c)).status).toBe(200)
    await t.sheaf.auth.key.rotate()
    expect((await me(c)).status).toBe(401)
  })

  it('a key rotated by another process (new secret, version moved) refuses the old token at once', async () => {
    const c = await signedIn(t, 'member')
    const bearer = new Client(t.url)
    const headers = { authorization: `Bearer ${tokenOf(c.cookie)}` }
    expect((await bearer.get('/api/auth/me', headers)).status).toBe(200)
    await secrets.set('JWT_SECRET', 'another process rotated the key')
    otherConnection((run) => run("UPDATE settings SET value = json(value + 1) WHERE key = 'auth.jwtKeyVersion'"))
    expect((await bearer.get('/api/auth/me', headers)).status).toBe(401)
  })
})
