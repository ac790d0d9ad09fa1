import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { mallocEnvArgs } from '../app/server-env.ts'
import type { ElectronApi } from './electron-api.ts'

/** Flag the shell is started with at login: it starts in the tray instead of opening the window. */
export const HIDDEN_FLAG = '--hidden'

export interface LoginItemInput {
  app: Pick<ElectronApi['app'], 'getLoginItemSettings' | 'setLoginItemSettings'>
  platform: NodeJS.Platform
  /** The program to start (the AppImage path when running from one). */
  execPath: string
  env?: NodeJS.ProcessEnv
}

/** Linux has no login-item API in Electron: the XDG autostart entry is the standard place. */
export function autostartFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'autostart', 'sheaf.desktop')
}

/**
 * The session starts the entry with no environment of Sheaf's, and glibc reads its allocator settings
 * before any JavaScript runs (app/server-env.ts), so the entry sets them through env(1).
 */
export function autostartEntry(execPath: string): string {
  const quoted = /[\s"'\\]/.test(execPath) ? `"${execPath.replace(/(["\\`$])/g, '\\$1')}"` : execPath
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Sheaf',
    'Comment=Your saved posts, organised and shared with your household',
    `Exec=env ${mallocEnvArgs()} ${quoted} ${HIDDEN_FLAG}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n')
}

/** "Open at login", off unless the user turns it on. */
export function createLoginItem({ app, platform, execPath, env = process.env }: LoginItemInput) {
  const linuxFile = autostartFile(env)
  function get(): boolean {
    if (platform === 'linux') return existsSync(linuxFile)
    return app.getLoginItemSettings().openAtLogin
  }
  function set(open: boolean): boolean {
    if (platform === 'linux') {
      if (open) {
        mkdirSync(dirname(linuxFile), { recursive: true })
        writeFileSync(linuxFile, autostartEntry(env.APPIMAGE || execPath))
      } else rmSync(linuxFile, { force: true })
    } else {
      app.setLoginItemSettings({ openAtLogin: open, args: [HIDDEN_FLAG] })
    }
    return get()
  }
  return { get, set }
}
export type LoginItem = ReturnType<typeof createLoginItem>
