import { join } from 'node:path'
import { z } from 'zod'
import { DESKTOP_CHANNELS as C, type DesktopImportResult, type ExportFormat } from '../../src-shared/desktop-api.ts'
import { zExportFormat, zOpenAtLogin } from '../../src-shared/schemas/desktop.ts'
import type { DesktopBackend } from './backend.ts'
import type { BrowserWindow, ElectronApi } from './electron-api.ts'
import { createIpc } from './ipc.ts'
import { HIDDEN_FLAG, createLoginItem } from './login-item.ts'
import { buildMenuTemplate } from './menu.ts'
import type { PipelineSummary, ShellActions, ShellState } from './shell-state.ts'
import { IMPORTABLE_EXTENSIONS, filesFromArgv, setupSingleInstance } from './single-instance.ts'
import { createTray, type ShellTray } from './tray.ts'
import { createMainWindow } from './window.ts'
import { clampToDisplays, loadWindowState, saveWindowState, trackWindowState } from './window-state.ts'

export interface DesktopDeps {
  electron: ElectronApi
  startBackend: () => Promise<DesktopBackend>
  preloadPath: string
  iconPath: string
  trayIconPath: string
  argv: string[]
  cwd: string
  platform: NodeJS.Platform
  execPath: string
  dev: boolean
  env?: NodeJS.ProcessEnv
  log?: (msg: string) => void
}

const EXTENSION: Record<ExportFormat, string> = { json: 'json', csv: 'csv', markdown: 'zip' }
const today = () => new Date().toISOString().slice(0, 10)

/** The desktop shell: one window on the embedded server, menu, tray, single instance, graceful quit. */
export async function createDesktop(deps: DesktopDeps) {
  const { electron, platform } = deps
  const { app, dialog, Menu, screen, shell, clipboard } = electron
  const log = deps.log ?? (() => undefined)
  const pending: string[] = filesFromArgv(deps.argv, deps.cwd)
  let backend: DesktopBackend | null = null
  let win: BrowserWindow | null = null
  let tray: ShellTray | null = null
  let pipeline: PipelineSummary | null = null
  let phase: 'running' | 'quitting' | 'closed' = 'running'

  const locked = setupSingleInstance({ app, focus: () => showWindow(), openFiles: (f) => void importPaths(f) })
  if (!locked) return null

  await app.whenReady()
  backend = await deps.startBackend()
  const b = backend
  const stateFile = join(b.dataDir, 'window-state.json')
  const loginItem = createLoginItem({ app, platform, execPath: deps.execPath, env: deps.env })

  const state = (): ShellState => ({ lan: b.lanStatus(), pipeline, openAtLogin: loginItem.get() })

  function showWindow(): void {
    if (!backend) return
    if (win && !win.isDestroyed()) {
      if (win.isMinimized()) win.restore()
      win.show()
      win.focus()
      return
    }
    const areas = screen.getAllDisplays().map((d) => d.workArea)
    win = createMainWindow({
      electron,
      appOrigin: b.origin,
      startUrl: b.startUrl(),
      state: clampToDisplays(loadWindowState(stateFile), areas),
      preloadPath: deps.preloadPath,
      iconPath: deps.iconPath,
    })
    trackWindowState(win, (s) => saveWindowState(stateFile, s))
    win.on('closed', () => (win = null))
  }

  async function importPaths(paths: string[]): Promise<DesktopImportResult> {
    if (!backend) {
      pending.push(...paths)
      return { files: [] }
    }
    const files = []
    for (const p of paths) files.push(await b.importFile(p))
    if (win && !win.isDestroyed()) win.webContents.send(C.libraryChanged)
    const failed = files.filter((f) => !f.ok)
    const lines = files.map((f) => `${f.path.split(/[\\/]/).pop()}: ${f.message}`).join('\n')
    void dialog.showMessageBox({
      type: failed.length ? 'warning' : 'info',
      message: failed.length ? 'Some files could not be imported' : 'Import finished',
      detail: lines,
    })
    return { files }
  }

  async function importWithDialog(): Promise<DesktopImportResult | null> {
    const opts = {
      title: 'Import saved posts',
      properties: ['openFile', 'multiSelections'] as Array<'openFile' | 'multiSelections'>,
      filters: [{ name: 'Exports of saved posts', extensions: IMPORTABLE_EXTENSIONS.map((e) => e.slice(1)) }],
    }
    const r = win ? await dialog.showOpenDialog(win, opts) : await dialog.showOpenDialog(opts)
    if (r.canceled || r.filePaths.length === 0) return null
    return importPaths(r.filePaths)
  }

  async function exportWithDialog(format: ExportFormat = 'json') {
    const opts = {
      title: 'Export the library',
      defaultPath: join(app.getPath('downloads'), `sheaf-export-${today()}.${EXTENSION[format]}`),
      filters: [{ name: format.toUpperCase(), extensions: [EXTENSION[format]] }],
    }
    const r = win ? await dialog.showSaveDialog(win, opts) : await dialog.showSaveDialog(opts)
    if (r.canceled || !r.filePath) return null
    try {
      const { bytes } = await b.exportTo(format, r.filePath)
      return { path: r.filePath, bytes }
    } catch (e) {
      dialog.showErrorBox('Export failed', (e as Error).message)
      return null
    }
  }

  const actions: ShellActions = {
    showWindow,
    importWithDialog: () => void importWithDialog(),
    exportWithDialog: () => void exportWithDialog('json'),
    setLanSharing: (on) => {
      b.setLanSharing(on).catch((e: Error) => dialog.showErrorBox('Sharing on the home network', e.message)).finally(refresh)
    },
    copyLanAddress: () => {
      const url = b.lanStatus().urls[0]
      if (url) clipboard.writeText(url)
    },
    setOpenAtLogin: (open) => {
      loginItem.set(open)
      refresh()
    },
    openDataFolder: () => void shell.openPath(b.dataDir),
    quit: () => app.quit(),
  }

  function refresh(): void {
    if (phase !== 'running') return
    const s = state()
    Menu.setApplicationMenu(Menu.buildFromTemplate(buildMenuTemplate({ platform, appName: 'Sheaf', state: s, actions, dev: deps.dev })))
    tray?.update(s)
  }

  const ipc = createIpc({ ipcMain: electron.ipcMain, appOrigin: b.origin, onRefused: (c, why) => log(`refused IPC ${c}: ${why}`) })
  ipc.handle(C.importWithDialog, z.tuple([]), () => importWithDialog())
  ipc.handle(C.exportWithDialog, z.tuple([zExportFormat]), (format) => exportWithDialog(format))
  ipc.handle(C.getOpenAtLogin, z.tuple([]), () => loginItem.get())
  ipc.handle(C.setOpenAtLogin, z.tuple([zOpenAtLogin]), (open) => {
    const now = loginItem.set(open)
    refresh()
    return now
  })

  try {
    tray = createTray(electron, deps.trayIconPath, actions)
  } catch (e) {
    log(`no tray on this desktop: ${(e as Error).message}`)
  }
  const stopLan = b.onLanChange(() => refresh())
  const stopPipeline = b.watchPipeline((p) => {
    pipeline = p
    refresh()
  })
  refresh()

  // With a tray the library keeps serving the household after the window closes; without one, quit.
  app.on('window-all-closed', () => {
    if (!tray && platform !== 'darwin') app.quit()
  })
  app.on('activate', () => showWindow())
  app.on('before-quit', (event) => {
    if (phase === 'closed') return
    event.preventDefault()
    if (phase === 'quitting') return
    phase = 'quitting'
    void shutdown()
  })

  async function shutdown(): Promise<void> {
    stopPipeline()
    stopLan()
    ipc.dispose()
    tray?.destroy()
    tray = null
    try {
      await b.close()
    } catch (e) {
      log(`shutdown: ${(e as Error).message}`)
    }
    backend = null
    phase = 'closed'
    app.quit()
  }

  if (!deps.argv.includes(HIDDEN_FLAG) || !tray) showWindow()
  if (pending.length) await importPaths(pending.splice(0))

  return {
    showWindow,
    importPaths,
    importWithDialog,
    exportWithDialog,
    state,
    window: () => win,
    phase: () => phase,
  }
}
export type Desktop = NonNullable<Awaited<ReturnType<typeof createDesktop>>>
