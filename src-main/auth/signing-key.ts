import { randomBytes } from 'node:crypto'
import type { SecretStore } from '../secrets/index.ts'
import { getSetting, putSetting, type Db } from '../store/index.ts'

const VERSION_KEY = 'auth.jwtKeyVersion'

/**
 * The JWT signing key lives in the credential store. A version number in the database lets a
 * running server notice `sheaf secret rotate` from another process and reload the key.
 */
export function createSigningKey({ db, secrets }: { db: Db; secrets: SecretStore }) {
  let cached: { version: number; key: Uint8Array } | null = null

  async function current(): Promise<Uint8Array> {
    const version = getSetting<number>(db, VERSION_KEY) ?? 0
    if (cached && cached.version === version) return cached.key
    let secret = await secrets.get('JWT_SECRET')
    if (!secret || version === 0) {
      secret = randomBytes(64).toString('base64url')
      await secrets.set('JWT_SECRET', secret)
      putSetting(db, VERSION_KEY, Math.max(version, 1))
    }
    cached = { version: getSetting<number>(db, VERSION_KEY) ?? 1, key: new TextEncoder().encode(secret) }
    return cached.key
  }

  /** A new key: every token signed with the old one stops working. */
  async function rotate(): Promise<void> {
    await secrets.set('JWT_SECRET', randomBytes(64).toString('base64url'))
    putSetting(db, VERSION_KEY, (getSetting<number>(db, VERSION_KEY) ?? 0) + 1)
    cached = null
  }

  return { current, rotate }
}
export type SigningKey = ReturnType<typeof createSigningKey>
