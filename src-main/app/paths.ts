import { homedir } from 'node:os'
import { join } from 'node:path'

/** The per-OS data folder: Linux $XDG_DATA_HOME/sheaf, macOS Application Support, Windows %APPDATA%. */
export function defaultDataDir(env: NodeJS.ProcessEnv, platform = process.platform): string {
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Sheaf')
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Sheaf')
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'sheaf')
}
