import { createApp, type SheafApp } from './create-app.ts'
import { resolveConfig, type ConfigFlags } from './config.ts'
import { createLogger } from './logger.ts'
import { listen, type RunningServer } from './server.ts'
import { openSecretStore } from '../secrets/index.ts'

export { createApp, type AppOverrides, type SheafApp } from './create-app.ts'
export { resolveConfig, parseRateLimit, DEFAULT_PORT, DEFAULT_RATE_LIMITS, type Config, type ConfigFlags } from './config.ts'
export { defaultDataDir } from './paths.ts'
export { createLogger, type Logger } from './logger.ts'
export { listen, type RunningServer } from './server.ts'

/** Opens the library for a one-shot CLI command (warnings only, no server). */
export function openForCli(dataDir?: string): Promise<SheafApp> {
  return createApp(resolveConfig({ dataDir }), { log: createLogger({ level: 'warn' }) })
}

export interface ServeOptions extends ConfigFlags {
  uiDir?: string | null
}

/**
 * Refuses as start-up would when an OS credential store is required (SHEAF_SECRET_STORE=keychain) and
 * none is reachable: before slow work such as building the UI, so the refusal is the only line.
 */
export async function checkRequiredSecretStore(flags: ConfigFlags): Promise<void> {
  const config = resolveConfig(flags)
  if (config.secretStore === 'keychain') await openSecretStore({ dataDir: config.dataDir, preference: 'keychain', warn: () => {} })
}

/** Starts the server and prints the one `listening on` line scripts wait for. */
export async function serve(flags: ServeOptions): Promise<{ sheaf: SheafApp; server: RunningServer }> {
  const config = resolveConfig(flags)
  if (flags.uiDir !== undefined) config.uiDir = flags.uiDir
  const sheaf = await createApp(config)
  const server = await listen(sheaf, config.host, config.port)
  process.stdout.write(`listening on ${server.url}\n`)
  sheaf.log.info(`library in ${config.dataDir}; secrets in the ${sheaf.secrets.kind} store`)
  if (sheaf.auth.sessions.needsSetup()) {
    sheaf.log.info(`no users yet: open ${server.url} on this machine to create the first admin, or run \`sheaf user add\``)
  }
  return { sheaf, server }
}
