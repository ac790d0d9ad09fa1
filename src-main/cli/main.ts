import { Command, CommanderError } from 'commander'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isAppError } from '../../src-shared/errors.ts'
import { ensureUiBuilt } from './build-ui.ts'
import { registerImportCommand, registerInviteCommands, registerSecretCommands, registerTokenCommands, registerUserCommands } from './commands.ts'
import { registerMcpCommand } from './mcp.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const BUILT_UI = join(ROOT, 'out/renderer')

export function buildProgram(): Command {
  const program = new Command('sheaf')
    .description('Sheaf: your saved posts, organised and shared with your household.')
    .option('--data-dir <dir>', 'library folder (default: the OS data folder, or $SHEAF_DATA_DIR)')
    .showHelpAfterError()
    .exitOverride()

  program.command('serve').description('run the server and UI (headless)')
    .option('--host <host>', 'address to listen on', undefined)
    .option('--port <port>', 'port; 0 picks a free one', (v) => Number(v))
    .option('--no-ui', 'serve the API only')
    .option('--lan', 'also share on the home network over HTTPS for this run (see docs/lan.md)')
    .action(async (o: { host?: string; port?: number; ui: boolean; lan?: boolean }, cmd: Command) => {
      const { serve, checkRequiredSecretStore, resolveConfig } = await import('../app/index.ts')
      await checkRequiredSecretStore({ dataDir: cmd.optsWithGlobals().dataDir })
      // SHEAF_UI_DIR (Config's uiDir) names a UI built elsewhere; without it, a source checkout builds its own when missing.
      const built = () => ensureUiBuilt(ROOT, (line) => process.stderr.write(`${line}\n`))
      const uiDir = o.ui ? (resolveConfig().uiDir ?? (built() ? BUILT_UI : null)) : null
      const { sheaf, server } = await serve({ host: o.host, port: o.port, dataDir: cmd.optsWithGlobals().dataDir, uiDir })
      if (!uiDir && o.ui) sheaf.log.warn('the UI could not be built (run `npm run build:web` to see why); serving the API only')
      else if (uiDir && !existsSync(join(uiDir, 'index.html'))) sheaf.log.warn(`no built UI in ${uiDir} (SHEAF_UI_DIR); serving the API only`)
      const lan = o.lan
        ? await sheaf.lan.start().catch(async (e: Error) => {
          await server.close()
          await sheaf.close()
          throw e
        })
        : await sheaf.lan.resume()
      if (lan.running) process.stdout.write(`sharing on the home network at ${lan.urls[0]} (certificate SHA-256 ${lan.fingerprint})\n`)
      const stop = async () => {
        sheaf.log.info('shutting down')
        await server.close()
        await sheaf.close()
        process.exit(0)
      }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    })

  registerUserCommands(program.command('user').description('manage accounts'))
  registerInviteCommands(program.command('invite').description('manage invite codes'))
  registerSecretCommands(program.command('secret').description('manage the session signing key'))
  registerTokenCommands(program.command('token').description('manage personal API tokens (for scripts and assistants)'))
  registerMcpCommand(program)
  registerImportCommand(program)
  for (const c of program.commands) c.exitOverride().showHelpAfterError()
  for (const c of program.commands.flatMap((c) => c.commands)) c.exitOverride().showHelpAfterError()
  return program
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv, { from: 'user' })
    return 0
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2
    const message = isAppError(e) || e instanceof Error ? e.message : String(e)
    process.stderr.write(`sheaf: ${message}\n`)
    return 1
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const code = await main(process.argv.slice(2))
  if (code !== 0 || !process.argv.slice(2).includes('serve')) process.exitCode = code
}
