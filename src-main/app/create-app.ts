import { mkdirSync } from 'node:fs'
import type { Hono } from 'hono'
import { createAuth, type Auth } from '../auth/index.ts'
import { createHttpApp, type AppEnv, type RouteModule } from '../http/index.ts'
import { openSecretStore, type SecretStore } from '../secrets/index.ts'
import { closeDatabase, openDatabase, type Db } from '../store/index.ts'
import type { Config } from './config.ts'
import { createLogger, type Logger } from './logger.ts'

export interface AppOverrides {
  clock?: () => number
  log?: Logger
  secrets?: SecretStore
  bcryptCost?: number
}

export interface SheafApp {
  config: Config
  app: Hono<AppEnv>
  db: Db
  auth: Auth
  secrets: SecretStore
  log: Logger
  /** Host names served besides loopback (LAN sharing adds to it). */
  extraHosts: Set<string>
  close(): Promise<void>
}

/** The composition root: the one place that wires configuration, store, secrets, capabilities and routes. */
export async function createApp(config: Config, overrides: AppOverrides = {}): Promise<SheafApp> {
  const log = overrides.log ?? createLogger()
  const clock = overrides.clock ?? Date.now
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const db = openDatabase({ file: config.dbFile, log: (m) => log.info(m) })
  try {
    const secrets = overrides.secrets ??
      (await openSecretStore({ dataDir: config.dataDir, preference: config.secretStore, warn: (m) => log.warn(m) }))
    const auth = createAuth({ db, secrets, clock, bcryptCost: overrides.bcryptCost })
    await auth.key.current()
    await bootstrapAdmin(config, auth, log)
    const extraHosts = new Set(config.allowedHosts)
    // Capabilities are created here and their routes listed below, one line each.
    const routes: RouteModule[] = []
    const app = createHttpApp({
      config,
      auth,
      clock,
      logError: (m, e) => log.error(m, e),
      allowedHosts: () => [...extraHosts],
      routes,
    })
    return { config, app, db, auth, secrets, log, extraHosts, close: async () => closeDatabase(db) }
  } catch (e) {
    closeDatabase(db)
    throw e
  }
}

async function bootstrapAdmin(config: Config, auth: Auth, log: Logger): Promise<void> {
  const admin = config.bootstrapAdmin
  if (!admin || auth.users.count() > 0) return
  const user = await auth.users.create({ ...admin, email: admin.email.trim().toLowerCase(), role: 'admin' })
  log.info(`created the first admin ${user.email} from SHEAF_ADMIN_EMAIL`)
}
