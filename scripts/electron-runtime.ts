import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Where the Electron executable is, or null when its runtime was never downloaded. Read from the
 * electron package's files directly: `require('electron')` would try to download the binary.
 */
export function electronBinary(root: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const pkg = join(root, 'node_modules', 'electron')
  const pathFile = join(pkg, 'path.txt')
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const p = join(env.ELECTRON_OVERRIDE_DIST_PATH, name || 'electron')
    return existsSync(p) ? p : null
  }
  if (!name) return null
  const p = join(pkg, 'dist', name)
  return existsSync(p) ? p : null
}
