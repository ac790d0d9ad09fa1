import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileStore, createMemoryStore, installId, openSecretStore } from '../../src-main/secrets/index.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sheaf-secrets-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const mode = (file: string) => statSync(file).mode & 0o777

describe('file store', () => {
  it('stores, reads and deletes secrets in a file readable only by its owner (0600)', async () => {
    const file = join(dir, 'secrets.json')
    const store = createFileStore({ file })
    expect(store.kind).toBe('file')
    expect(await store.get('JWT_SECRET')).toBeNull()
    await store.set('JWT_SECRET', 'k1')
    await store.set('ai:anthropic', 'sk-test')
    expect(mode(file)).toBe(0o600)
    expect(await store.get('JWT_SECRET')).toBe('k1')
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ JWT_SECRET: 'k1', 'ai:anthropic': 'sk-test' })
    await store.delete('JWT_SECRET')
    expect(await store.get('JWT_SECRET')).toBeNull()
    expect(await createFileStore({ file }).get('ai:anthropic')).toBe('sk-test') // a second process sees it
    expect(mode(file)).toBe(0o600)
  })

  it('tightens an existing file that someone made readable to others', () => {
    const file = join(dir, 'secrets.json')
    writeFileSync(file, '{}')
    chmodSync(file, 0o644)
    createFileStore({ file })
    expect(mode(file)).toBe(0o600)
  })
})

describe('memory store', () => {
  it('keeps values for the life of the object only', async () => {
    const a = createMemoryStore()
    await a.set('JWT_SECRET', 'x')
    expect(await a.get('JWT_SECRET')).toBe('x')
    expect(await createMemoryStore().get('JWT_SECRET')).toBeNull()
  })
})

describe('openSecretStore', () => {
  it('SHEAF_SECRET_STORE=file chooses the file without a warning', async () => {
    const warnings: string[] = []
    const store = await openSecretStore({ dataDir: dir, preference: 'file', warn: (m) => warnings.push(m) })
    expect(store.kind).toBe('file')
    expect(warnings).toEqual([])
    await store.set('JWT_SECRET', 'v')
    expect(mode(join(dir, 'secrets.json'))).toBe(0o600)
  })

  it('gives each data dir its own stable install id (0600)', () => {
    const a = installId(dir)
    expect(a).toMatch(/^[0-9a-f-]{36}$/)
    expect(installId(dir)).toBe(a)
    expect(mode(join(dir, 'install-id'))).toBe(0o600)
    const other = mkdtempSync(join(tmpdir(), 'sheaf-secrets-'))
    try {
      expect(installId(other)).not.toBe(a)
    } finally {
      rmSync(other, { recursive: true, force: true })
    }
  })
})
