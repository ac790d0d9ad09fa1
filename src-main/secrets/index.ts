import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '../../src-shared/errors.ts'
import { createFileStore } from './file-store.ts'
import { createKeyringStore, keyringAvailable } from './keyring-store.ts'
import type { SecretName, SecretStore } from './secret-store.ts'

export type { SecretName, SecretStore, SecretStoreKind } from './secret-store.ts'
export { createFileStore, createMemoryStore } from './file-store.ts'
export { createKeyringStore, keyringAvailable } from './keyring-store.ts'

export type SecretStorePreference = 'auto' | 'keychain' | 'file'

export interface OpenSecretStoreOptions {
  dataDir: string
  preference: SecretStorePreference
  warn: (msg: string) => void
}

/** Picks the credential store: the OS keychain when reachable, else an owner-only file (with a warning). */
export async function openSecretStore({ dataDir, preference, warn }: OpenSecretStoreOptions): Promise<SecretStore> {
  const file = join(dataDir, 'secrets.json')
  const fileStore = () => createFileStore({ file })
  if (preference === 'file') return fileStore()
  if (await keyringAvailable()) {
    if (preference === 'auto' && existsSync(file)) {
      // Secrets already live in the file (the library ran without a keychain once): keep them there
      // rather than lose AI keys or end sessions; moving them is an explicit choice.
      warn(`keeping secrets in ${file} (mode 0600); start once with SHEAF_SECRET_STORE=keychain to move them into the OS credential store`)
      return fileStore()
    }
    const keychain = createKeyringStore({ installId: installId(dataDir) })
    await moveFileSecretsInto(keychain, file, warn)
    return keychain
  }
  if (preference === 'keychain') {
    throw new AppError(
      'INTERNAL_ERROR',
      'SHEAF_SECRET_STORE=keychain but no OS credential store is reachable (on Linux, start and unlock a Secret Service such as gnome-keyring), or set SHEAF_SECRET_STORE=file.',
    )
  }
  warn(`no OS credential store is reachable; keeping secrets in ${join(dataDir, 'secrets.json')} (mode 0600)`)
  return fileStore()
}

/** A random id per data dir, so keychain entries of different libraries never collide. */
export function installId(dataDir: string): string {
  const file = join(dataDir, 'install-id')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const id = randomUUID()
  writeFileSync(file, id, { mode: 0o600 })
  return id
}

/** SHEAF_SECRET_STORE=keychain with an existing secrets file: the secrets move in and the file goes. */
async function moveFileSecretsInto(keychain: SecretStore, file: string, warn: (msg: string) => void): Promise<void> {
  if (!existsSync(file)) return
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>
  for (const [name, value] of Object.entries(data)) {
    if ((await keychain.get(name as SecretName)) === null) await keychain.set(name as SecretName, value)
  }
  rmSync(file)
  warn(`moved ${Object.keys(data).length} secret(s) from ${file} into the OS credential store and deleted the file`)
}
