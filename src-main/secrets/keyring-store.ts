import * as keytar from '@napi-rs/keyring/keytar.js'
import type { SecretName, SecretStore } from './secret-store.ts'

export const KEYRING_SERVICE = 'Sheaf'

/**
 * The OS credential store (macOS Keychain, Windows Credential Manager, Secret Service on Linux).
 * Accounts are scoped by install id so several libraries on one machine keep separate keys.
 */
export function createKeyringStore({ installId }: { installId: string }): SecretStore {
  const account = (name: SecretName) => `${name}@${installId}`
  return {
    kind: 'keychain',
    get: (name) => keytar.getPassword(KEYRING_SERVICE, account(name)),
    set: (name, value) => keytar.setPassword(KEYRING_SERVICE, account(name), value),
    async delete(name) {
      await keytar.deletePassword(KEYRING_SERVICE, account(name))
    },
  }
}

/** True when a credential store answers; on Linux that needs a running, unlocked Secret Service. */
export async function keyringAvailable(): Promise<boolean> {
  try {
    await keytar.getPassword(KEYRING_SERVICE, 'availability-probe')
    return true
  } catch {
    return false
  }
}
