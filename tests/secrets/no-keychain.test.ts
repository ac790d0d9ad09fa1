import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { keyringAvailable, openSecretStore } from '../../src-main/secrets/index.ts'
import { describeIf } from '../support/skip.ts'

// This file runs in its own worker process: pointing the session bus at nothing makes the Secret
// Service unreachable here, even in CI where a real gnome-keyring is running.
process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/sheaf-test-bus'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sheaf-nokeychain-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describeIf(process.platform === 'linux', 'Linux only')('without a reachable OS credential store (Linux)', () => {
  it('reports the keychain as unavailable (no silent fallback to the in-memory kernel keyring)', async () => {
    expect(await keyringAvailable()).toBe(false)
  })

  it('falls back to a 0600 file in the data dir with exactly one warning', async () => {
    const warnings: string[] = []
    const store = await openSecretStore({ dataDir: dir, preference: 'auto', warn: (m) => warnings.push(m) })
    expect(store.kind).toBe('file')
    expect(warnings).toEqual([`no OS credential store is reachable; keeping secrets in ${join(dir, 'secrets.json')} (mode 0600)`])
    await store.set('JWT_SECRET', 'k')
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600)
  })

  it('SHEAF_SECRET_STORE=keychain refuses to start with a message saying what to do', async () => {
    await expect(openSecretStore({ dataDir: dir, preference: 'keychain', warn: () => {} })).rejects.toThrow(
      /SHEAF_SECRET_STORE=keychain but no OS credential store is reachable.*gnome-keyring.*SHEAF_SECRET_STORE=file/,
    )
  })
})
