import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * In a source checkout (a fresh clone has no `out/`), builds the web UI when `out/renderer` has no
 * index.html: `vite build --config vite.web.config.ts`, under a second. Vite's own output goes to standard
 * error so that standard output keeps its one line. Returns false where there is nothing to build from
 * (a packaged app without the sources or without Vite) or the build failed; the caller then serves the
 * API only and says so.
 */
export function ensureUiBuilt(root: string, log: (line: string) => void): boolean {
  const uiDir = join(root, 'out', 'renderer')
  if (existsSync(join(uiDir, 'index.html'))) return true
  const config = join(root, 'vite.web.config.ts')
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js')
  if (!existsSync(config) || !existsSync(vite)) return false
  log('the UI is not built yet; building it now (npm run build:web)')
  const r = spawnSync(process.execPath, [vite, 'build', '--config', config, '--logLevel', 'warn'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  })
  return r.status === 0 && existsSync(join(uiDir, 'index.html'))
}
