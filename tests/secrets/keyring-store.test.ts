import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { createApp, createLogger, resolveConfig } from '../../src-main/app/index.ts'
import { createKeyringStore, installId, keyringAvailable, openSecretStore } from '../../src-main/secrets/index.ts'
import { describeIf } from '../support/skip.ts'

const available = await keyringAvailable()
if (!available) {
  console.warn('keyring-store.test.ts: skipped, no OS credential store (Secret Service) is reachable here; CI runs it under dbus-run-session with gnome-keyring')
}

const dirs: string[] = []
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'sheaf-keychain-'))
  dirs.push(d)
  return d
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describeIf(available, 'no OS credential store is reachable here (README, Tests: how to give the tests one)')('the real OS credential store', () => {
  it('stores, reads and deletes JWT_SECRET', async () => {
    const store = createKeyringStore({ installId: `test-${randomUUID()}` })
    expect(store.kind).toBe('keychain')
    expect(await store.get('JWT_SECRET')).toBeNull()
    await store.set('JWT_SECRET', 'first')
    expect(await store.get('JWT_SECRET')).toBe('first')
    await store.set('JWT_SECRET', 'second')
    expect(await store.get('JWT_SECRET')).toBe('second')
    await store.delete('JWT_SECRET')
    expect(await store.get('JWT_SECRET')).toBeNull()
    await store.delete('JWT_SECRET') // deleting what is gone is fine
  })

  it('keeps the entries of two libraries apart (install id)', async () => {
    const a = createKeyringStore({ installId: `test-${randomUUID()}` })
    const b = createKeyringStore({ installId: `test-${randomUUID()}` })
    await a.set('JWT_SECRET', 'a')
    expect(await b.get('JWT_SECRET')).toBeNull()
    await a.delete('JWT_SECRET')
  })

  it('is what openSecretStore picks by default and when required, without warnings', async () => {
    for (const preference of ['auto', 'keychain'] as const) {
      const warnings: string[] = []
      const store = await openSecretStore({ dataDir: tempDir(), preference, warn: (m) => warnings.push(m) })
      expect(store.kind).toBe('keychain')
      expect(warnings).toEqual([])
    }
  })

  it('keeps an existing secrets file in auto mode; SHEAF_SECRET_STORE=keychain moves it in and deletes it', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ JWT_SECRET: 'from-file', 'ai:openai': 'sk-1' }), { mode: 0o600 })
    const kept = await openSecretStore({ dataDir: dir, preference: 'auto', warn: () => {} })
    expect(kept.kind).toBe('file')
    const warnings: string[] = []
    const moved = await openSecretStore({ dataDir: dir, preference: 'keychain', warn: (m) => warnings.push(m) })
    expect(moved.kind).toBe('keychain')
    expect(existsSync(join(dir, 'secrets.json'))).toBe(false)
    expect(await moved.get('JWT_SECRET')).toBe('from-file')
    expect(await moved.get('ai:openai')).toBe('sk-1')
    expect(warnings[0]).toMatch(/moved 2 secret\(s\)/)
    await moved.delete('JWT_SECRET')
    await moved.delete('ai:openai')
  })

  it('holds the signing key of a real app, and no secrets file is written', async () => {
    const dataDir = tempDir()
    const sheaf = await createApp(resolveConfig({ dataDir }, {}), { log: createLogger({ level: 'error', write: () => {} }), bcryptCost: 4 })
    try {
      expect(sheaf.secrets.kind).toBe('keychain')
      const key = await createKeyringStore({ installId: installId(dataDir) }).get('JWT_SECRET')
      expect(key).toMatch(/^[A-Za-z0-9_-]{80,}$/)
      expect(existsSync(join(dataDir, 'secrets.json'))).toBe(false)
    } finally {
      await sheaf.secrets.delete('JWT_SECRET')
      await sheaf.close()
    }
  })
})
