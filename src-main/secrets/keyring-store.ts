import { AsyncEntry, type EntryOptions } from '@napi-rs/keyring'
import type { SecretName, SecretStore } from './secret-store.ts'

export const KEYRING_SERVICE = 'Sheaf'

/**
 * On Linux the binding otherwise falls back, silently, to the kernel keyutils keyring, which lives in
 * memory and is gone after a reboot (every session would end, and AI keys would vanish). Pinning the
 * Secret Service makes "no keychain" visible, so we fall back to the 0600 file with a warning instead.
 */
const ENTRY_OPTIONS: EntryOptions = { linux: { store: 'secret-service' } }

const entry = (account: string) => new AsyncEntry(KEYRING_SERVICE, account, ENTRY_OPTIONS)

/**
 * The OS credential store (macOS Keychain, Windows Credential Manager, Secret Service on Linux).
 * Accounts are scoped by install id so several libraries on one machine keep separate keys.
 */
export function createKeyringStore({ installId }: { installId: string }): SecretStore {
  const account = (name: SecretName) => `${name}@${installId}`
  return {
    kind: 'keychain',
    get: async (name) => (await entry(account(name)).getPassword()) ?? null,
    set: (name, value) => entry(account(name)).setPassword(value),
    async delete(name) {
      await entry(account(name)).deletePassword()
    },
  }
}

/** True when a credential store answers; on Linux that needs a running, unlocked Secret Service. */
export async function keyringAvailable(): Promise<boolean> {
  try {
    await entry('availability-probe').getPassword()
    return true
  } catch {
    return false
  }
}
