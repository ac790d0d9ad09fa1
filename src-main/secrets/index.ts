import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '../../src-shared/errors.ts'
import { createFileStore } from './file-store.ts'
import { createKeyringStore, keyringAvailable } from './keyring-store.ts'
import type { SecretStore } from './secret-store.ts'

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
  const fileStore = () => createFileStore({ file: join(dataDir, 'secrets.json') })
  if (preference === 'file') return fileStore()
  if (await keyringAvailable()) return createKeyringStore({ installId: installId(dataDir) })
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
