// The Electron main process entry (bundled by electron-vite to out/main/main.js).
import * as electron from 'electron'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startBackend } from './backend.ts'
import { createDesktop } from './desktop.ts'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..')
const resources = electron.app.isPackaged ? process.resourcesPath : join(root, 'resources')
const uiDir = join(root, 'out', 'renderer')

electron.app.setName('Sheaf')
// Windows groups taskbar entries and notifications by this id (matches electron-builder's appId).
if (process.platform === 'win32') electron.app.setAppUserModelId('app.sheaf.desktop')

const desktop = await createDesktop({
  electron,
  startBackend: () => startBackend({ uiDir: existsSync(join(uiDir, 'index.html')) ? uiDir : null }),
  preloadPath: join(here, '..', 'preload', 'preload.cjs'),
  iconPath: join(resources, 'icons', 'png', '512x512.png'),
  trayIconPath: join(resources, 'icons', 'png', process.platform === 'darwin' ? '16x16.png' : '32x32.png'),
  argv: process.argv,
  cwd: process.cwd(),
  platform: process.platform,
  execPath: process.execPath,
  dev: !electron.app.isPackaged,
  log: (m) => process.stderr.write(`sheaf desktop: ${m}\n`),
}).catch((e: Error) => {
  electron.dialog.showErrorBox('Sheaf could not start', e.message)
  electron.app.exit(1)
  return null
})
if (!desktop) process.exitCode = 0
