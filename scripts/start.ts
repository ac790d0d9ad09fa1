// `npm start`: the desktop app where Electron's runtime is installed; the same app in the browser otherwise.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '../src-main/app/index.ts'
import { serverEnv } from '../src-main/app/server-env.ts'
import { electronBinary } from './electron-runtime.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const uiDir = join(root, 'out', 'renderer')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const run = (script: string) => {
  const r = spawnSync(npm, ['run', '--silent', script], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
  if (r.status !== 0) throw new Error(`npm run ${script} failed (exit ${r.status})`)
}

const electron = electronBinary(root)
if (electron) {
  run('build')
  const child = spawn(electron, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', env: serverEnv(process.env) })
  child.on('exit', (code) => process.exit(code ?? 0))
} else {
  process.stdout.write("Electron's runtime is not installed on this machine, so Sheaf runs in browser mode: open the address below.\n")
  if (!existsSync(join(uiDir, 'index.html'))) run('build:web')
  const { sheaf, server } = await serve({ uiDir })
  await sheaf.lan.resume()
  const stop = async () => {
    await server.close()
    await sheaf.close()
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}
