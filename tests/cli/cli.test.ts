import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { verifyPassword } from '../../src-main/auth/index.ts'
import { closeDatabase, openDatabase } from '../../src-main/store/index.ts'
import { findUserByEmail } from '../../src-main/store/queries/accounts.ts'
import { runCli } from './run-cli.ts'
import { describeIf } from '../support/skip.ts'

vi.setConfig({ testTimeout: 120_000 })

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sheaf-cli-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const sheaf = (args: string[], stdin?: string) => runCli(['--data-dir', dir, ...args], { stdin })
const oneLine = (s: string) => s.trimEnd().split('\n')

function passwordHashOf(email: string): string {
  const db = openDatabase({ file: join(dir, 'sheaf.db') })
  try {
    return findUserByEmail(db, email)!.passwordHash
  } finally {
    closeDatabase(db)
  }
}

describe('--help everywhere (exit 0)', () => {
  const commands = [[], ['serve'], ['user'], ['user', 'add'], ['user', 'list'], ['user', 'set-password'], ['user', 'set-role'],
    ['user', 'remove'], ['invite'], ['invite', 'create'], ['invite', 'list'], ['invite', 'revoke'], ['secret'], ['secret', 'rotate']]
  it('prints usage for every command', async () => {
    const results = await Promise.all(commands.map((c) => runCli([...c, '--help'])))
    results.forEach((r, i) => {
      expect(r.code, commands[i].join(' ')).toBe(0)
      expect(r.stdout, commands[i].join(' ')).toMatch(new RegExp(`^Usage: sheaf ${commands[i].join(' ')}`))
    })
    expect(results[3].stdout).toContain('--password-stdin')
    expect(results[9].stdout).toContain('--expires')
  })
})

describe('user commands', () => {
  it('user add creates an account from --password-stdin, hashed with bcrypt cost 12', async () => {
    const r = await sheaf(['user', 'add', '--email', ' Ada@Example.com', '--name', 'Ada', '--role', 'admin', '--password-stdin'], 'ada password 1\n')
    expect(r).toMatchObject({ code: 0, stderr: '' })
    expect(oneLine(r.stdout)).toEqual(['created admin ada@example.com (id 1)'])
    const hash = passwordHashOf('ada@example.com')
    expect(hash).toMatch(/^\$2b\$12\$/)
    expect(await verifyPassword('ada password 1', hash)).toBe(true) // the trailing newline is not part of it
  })

  it('user add defaults to member, and refuses a duplicate e-mail with exit 1 and one line', async () => {
    expect((await sheaf(['user', 'add', '--email', 'bob@example.com', '--name', 'Bob', '--password-stdin'], 'bob password')).code).toBe(0)
    const dup = await sheaf(['user', 'add', '--email', 'BOB@example.com', '--name', 'Bob', '--password-stdin'], 'bob password')
    expect(dup.code).toBe(1)
    expect(oneLine(dup.stderr)).toEqual(['sheaf: An account with the e-mail bob@example.com already exists; sign in instead.'])
  })

  it.each([
    [['--email', 'c@example.com', '--name', 'C', '--password-stdin'], 'short', /at least 8/],
    [['--email', 'c@example.com', '--name', 'C', '--password-stdin'], 'x'.repeat(73), /72 bytes/],
    [['--email', 'not-an-email', '--name', 'C', '--password-stdin'], 'long enough 1', /valid e-mail/],
    [['--email', 'c@example.com', '--name', 'C', '--role', 'owner', '--password-stdin'], 'long enough 1', /admin|member|viewer|option/i],
    [['--email', 'c@example.com', '--name', 'C'], undefined, /--password-stdin/],
  ])('user add %j refuses with exit 1 and one line', async (args, stdin, message) => {
    const r = await sheaf(['user', 'add', ...args], stdin)
    expect(r.code).toBe(1)
    expect(oneLine(r.stderr)).toHaveLength(1)
    expect(r.stderr).toMatch(/^sheaf: /)
    expect(r.stderr).toMatch(message)
  })

  it('user list prints one line per account, or JSON', async () => {
    const text = await sheaf(['user', 'list'])
    expect(text.code).toBe(0)
    expect(oneLine(text.stdout)).toEqual(['   1  admin   ada@example.com  Ada', '   2  member  bob@example.com  Bob'])
    const json = await sheaf(['user', 'list', '--json'])
    expect(JSON.parse(json.stdout)).toEqual([
      { id: 1, name: 'Ada', email: 'ada@example.com', role: 'admin' },
      { id: 2, name: 'Bob', email: 'bob@example.com', role: 'member' },
    ])
  })

  it('user set-password changes the hash', async () => {
    const r = await sheaf(['user', 'set-password', 'bob@example.com', '--password-stdin'], 'new bob password')
    expect(r.code).toBe(0)
    expect(oneLine(r.stdout)).toEqual(['password changed for bob@example.com'])
    expect(await verifyPassword('new bob password', passwordHashOf('bob@example.com'))).toBe(true)
    const unknown = await sheaf(['user', 'set-password', 'nobody@example.com', '--password-stdin'], 'whatever 12')
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toBe('sheaf: no user with the e-mail nobody@example.com (see `sheaf user list`)\n')
  })

  it('user set-role changes a role and never demotes the last admin', async () => {
    expect(oneLine((await sheaf(['user', 'set-role', 'bob@example.com', 'viewer'])).stdout)).toEqual(['bob@example.com is now viewer'])
    const last = await sheaf(['user', 'set-role', 'ada@example.com', 'member'])
    expect(last.code).toBe(1)
    expect(last.stderr).toBe('sheaf: This is the last admin and cannot be demoted; make someone else an admin first.\n')
    const bad = await sheaf(['user', 'set-role', 'bob@example.com', 'owner'])
    expect(bad.code).toBe(1)
  })

  it('user remove deletes an account and never the last admin', async () => {
    const last = await sheaf(['user', 'remove', 'ada@example.com'])
    expect(last.code).toBe(1)
    expect(last.stderr).toMatch(/^sheaf: This is the last admin and cannot be removed/)
    const r = await sheaf(['user', 'remove', 'bob@example.com'])
    expect(r.code).toBe(0)
    expect(oneLine(r.stdout)).toEqual(['removed bob@example.com'])
    expect(JSON.parse((await sheaf(['user', 'list', '--json'])).stdout).map((u: { email: string }) => u.email)).toEqual(['ada@example.com'])
  })
})

describe('invite commands', () => {
  let code: string
  it('invite create prints only the code on stdout', async () => {
    const r = await sheaf(['invite', 'create', '--role', 'member', '--expires', '48h'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^[A-Za-z0-9_-]{27}\n$/)
    code = r.stdout.trim()
    expect(r.stderr).toMatch(/^a member invite, valid until \d{4}-\d\d-\d\dT[\d:.]+Z; it works once\n$/)
  })

  it('invite list shows it as active, by its first characters only', async () => {
    const r = await sheaf(['invite', 'list'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`${code.slice(0, 4)}…  member  active`)
    expect(r.stdout).not.toContain(code)
    const json = JSON.parse((await sheaf(['invite', 'list', '--json'])).stdout)
    expect(json[0]).toMatchObject({ role: 'member', status: 'active', hint: code.slice(0, 4) })
    expect(Date.parse(json[0].expiresAt) - Date.parse(json[0].createdAt)).toBe(2 * 86_400_000)
  })

  it('invite revoke CODE revokes it; an unknown code is exit 1', async () => {
    const r = await sheaf(['invite', 'revoke', code])
    expect(r.code).toBe(0)
    expect(oneLine(r.stdout)).toEqual([expect.stringMatching(/^invite \d+ is revoked$/)])
    expect((await sheaf(['invite', 'list'])).stdout).toContain('revoked')
    const unknown = await sheaf(['invite', 'revoke', 'no-such-code'])
    expect(unknown).toMatchObject({ code: 1, stderr: 'sheaf: No such invite code.\n' })
  })

  it('invite revoke ID works too', async () => {
    await sheaf(['invite', 'create', '--role', 'viewer'])
    const id = JSON.parse((await sheaf(['invite', 'list', '--json'])).stdout)[0].id as number
    expect(oneLine((await sheaf(['invite', 'revoke', String(id)])).stdout)).toEqual([`invite ${id} is revoked`])
  })

  it('invite create refuses a bad --expires or role with exit 1', async () => {
    const r = await sheaf(['invite', 'create', '--role', 'member', '--expires', 'soon'])
    expect(r).toMatchObject({ code: 1, stderr: 'sheaf: --expires must look like 7d or 48h (got "soon")\n' })
    expect((await sheaf(['invite', 'create', '--role', 'boss'])).code).toBe(1)
  })
})

describe('usage errors exit 2', () => {
  it.each([
    [['user', 'add', '--name', 'X']],
    [['invite', 'create']],
    [['frobnicate']],
    [['user', 'set-role', 'a@example.com']],
    [['user', 'list', '--no-such-flag']],
  ])('sheaf %j', async (args) => {
    const r = await sheaf(args)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/error: /)
  })
})

describe('sheaf with no data yet', () => {
  it('user list on a fresh data dir says how to start', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'sheaf-cli-empty-'))
    try {
      const r = await runCli(['--data-dir', fresh, 'user', 'list'])
      expect(r).toMatchObject({ code: 0, stdout: 'no users yet (create one with `sheaf user add`)\n' })
      expect(existsSync(join(fresh, 'sheaf.db'))).toBe(true)
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })
})

describeIf(process.platform === 'linux', 'Linux only')('SHEAF_SECRET_STORE=keychain without a reachable keychain', () => {
  it('refuses to start with one line saying what to do (exit 1)', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'sheaf-cli-keychain-'))
    try {
      const env = { SHEAF_SECRET_STORE: 'keychain', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/sheaf-test-bus' }
      for (const args of [['user', 'list'], ['serve', '--port', '0']]) {
        const r = await runCli(['--data-dir', fresh, ...args], { env })
        expect(r.code, args.join(' ')).toBe(1)
        expect(r.stdout).toBe('')
        expect(oneLine(r.stderr)).toEqual([expect.stringMatching(/^sheaf: SHEAF_SECRET_STORE=keychain but no OS credential store is reachable .*SHEAF_SECRET_STORE=file\.$/)])
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })
})
