import { EventEmitter } from 'node:events'
import type { ElectronApi } from '../../src-main/desktop/electron-api.ts'

/** A hand-written stand-in for the parts of Electron the shell uses; it records every call. */
export interface Recorded {
  windows: StubWindow[]
  externalUrls: string[]
  openedPaths: string[]
  menus: unknown[][]
  applicationMenu: unknown[] | null
  trays: StubTray[]
  messages: { message: string; detail?: string }[]
  errors: { title: string; content: string }[]
  clipboard: string[]
  ipc: Map<string, (event: unknown, ...args: unknown[]) => unknown>
  quitCalls: number
  loginItem: { openAtLogin: boolean; args?: string[] }
}

export class StubWebContents extends EventEmitter {
  openHandler: ((d: { url: string }) => { action: string }) | null = null
  sent: string[] = []
  permissionRequest: ((wc: unknown, permission: string, cb: (ok: boolean) => void) => void) | null = null
  permissionCheck: ((...a: unknown[]) => boolean) | null = null
  session = {
    setPermissionRequestHandler: (fn: StubWebContents['permissionRequest']) => (this.permissionRequest = fn),
    setPermissionCheckHandler: (fn: StubWebContents['permissionCheck']) => (this.permissionCheck = fn),
    setDevicePermissionHandler: () => undefined,
  }
  setWindowOpenHandler(fn: StubWebContents['openHandler']) {
    this.openHandler = fn
  }
  send(channel: string) {
    this.sent.push(channel)
  }
  /** Emits a navigation event and says whether the shell prevented it. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
    let prevented = false
    this.emit(event, { preventDefault: () => (prevented = true) }, url)
    return prevented
  }
}

export class StubWindow extends EventEmitter {
  options: Record<string, any>
  webContents = new StubWebContents()
  loaded: string[] = []
  shown = 0
  focused = 0
  maximized = false
  destroyed = false
  bounds: { x: number; y: number; width: number; height: number }
  constructor(options: Record<string, any>) {
    super()
    this.options = options
    this.bounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width, height: options.height }
  }
  loadURL(url: string) {
    this.loaded.push(url)
    return Promise.resolve()
  }
  show() {
    this.shown++
  }
  focus() {
    this.focused++
  }
  maximize() {
    this.maximized = true
  }
  isMaximized() {
    return this.maximized
  }
  isMinimized() {
    return false
  }
  restore() {}
  isDestroyed() {
    return this.destroyed
  }
  getNormalBounds() {
    return this.bounds
  }
}

export class StubTray extends EventEmitter {
  tooltip = ''
  menu: unknown[] = []
  destroyed = false
  setToolTip(t: string) {
    this.tooltip = t
  }
  setContextMenu(m: { template: unknown[] }) {
    this.menu = m.template
  }
  destroy() {
    this.destroyed = true
  }
}

export interface StubOptions {
  singleInstance?: boolean
  openDialog?: () => { canceled: boolean; filePaths: string[] }
  saveDialog?: () => { canceled: boolean; filePath?: string }
  displays?: { workArea: { x: number; y: number; width: number; height: number } }[]
  downloads?: string
}

export function createElectronStub(opts: StubOptions = {}): { electron: ElectronApi; rec: Recorded; app: EventEmitter } {
  const rec: Recorded = {
    windows: [], externalUrls: [], openedPaths: [], menus: [], applicationMenu: null, trays: [], messages: [], errors: [],
    clipboard: [], ipc: new Map(), quitCalls: 0, loginItem: { openAtLogin: false },
  }
  const app = new EventEmitter() as EventEmitter & Record<string, unknown>
  Object.assign(app, {
    isPackaged: false,
    whenReady: () => Promise.resolve(),
    requestSingleInstanceLock: () => opts.singleInstance ?? true,
    quit: () => {
      rec.quitCalls++
      let prevented = false
      app.emit('before-quit', { preventDefault: () => (prevented = true) })
      if (!prevented) app.emit('will-quit')
    },
    getPath: () => opts.downloads ?? '/tmp',
    getLoginItemSettings: () => ({ ...rec.loginItem }),
    setLoginItemSettings: (s: { openAtLogin: boolean; args?: string[] }) => (rec.loginItem = { openAtLogin: s.openAtLogin, args: s.args }),
  })
  const BrowserWindow = function (this: unknown, options: Record<string, any>) {
    const w = new StubWindow(options)
    rec.windows.push(w)
    return w
  }
  const Tray = function () {
    const t = new StubTray()
    rec.trays.push(t)
    return t
  }
  const electron = {
    app,
    BrowserWindow,
    Tray,
    Menu: {
      buildFromTemplate: (template: unknown[]) => {
        rec.menus.push(template)
        return { template }
      },
      setApplicationMenu: (m: { template: unknown[] }) => (rec.applicationMenu = m.template),
    },
    dialog: {
      showOpenDialog: async () => (opts.openDialog ?? (() => ({ canceled: true, filePaths: [] })))(),
      showSaveDialog: async () => (opts.saveDialog ?? (() => ({ canceled: true })))(),
      showMessageBox: async (o: { message: string; detail?: string }) => {
        rec.messages.push({ message: o.message, detail: o.detail })
        return { response: 0 }
      },
      showErrorBox: (title: string, content: string) => rec.errors.push({ title, content }),
    },
    shell: {
      openExternal: async (url: string) => void rec.externalUrls.push(url),
      openPath: async (p: string) => {
        rec.openedPaths.push(p)
        return ''
      },
    },
    ipcMain: {
      handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => unknown) => rec.ipc.set(channel, fn),
      removeHandler: (channel: string) => rec.ipc.delete(channel),
    },
    screen: { getAllDisplays: () => opts.displays ?? [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    nativeImage: {
      createFromPath: () => ({ isEmpty: () => true, resize: () => ({}) }),
    },
    clipboard: { writeText: (t: string) => rec.clipboard.push(t) },
  }
  return { electron: electron as unknown as ElectronApi, rec, app }
}

/** An IPC event as Electron would build it for a frame at `url`. */
export const ipcEvent = (url: string, parent: unknown = null) => ({ senderFrame: { url, parent } })
