import { mkdirSync } from 'node:fs'
import { createAuth, type Auth } from '../auth/index.ts'
import { openSecretStore, type SecretStore } from '../secrets/index.ts'
import { closeDatabase, openDatabase, type Db } from '../store/index.ts'
import { resolveConfig, type Config } from './config.ts'
import { createLogger } from './logger.ts'

export interface Accounts {
  config: Config
  db: Db
  auth: Auth
  secrets: SecretStore
  close(): Promise<void>
}

/**
 * The library's accounts, invites and signing key without the rest of the app: what the `sheaf user`,
 * `invite` and `secret` commands need. Loads a fraction of the code createApp does (no pipeline, AI,
 * importers), so one-shot commands start quickly.
 */
export async function openAccounts(dataDir?: string): Promise<Accounts> {
  const config = resolveConfig({ dataDir })
  const log = createLogger({ level: 'warn' })
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const db = openDatabase({ file: config.dbFile, log: (m) => log.info(m) })
  try {
    const secrets = await openSecretStore({ dataDir: config.dataDir, preference: config.secretStore, warn: (m) => log.warn(m) })
    const auth = createAuth({ db, secrets, clock: Date.now })
    await auth.key.current()
    return { config, db, auth, secrets, close: async () => closeDatabase(db) }
  } catch (e) {
    closeDatabase(db)
    throw e
  }
}
