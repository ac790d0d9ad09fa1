import type { BrowserWindow, BrowserWindowConstructorOptions, ElectronApi, Session, WebContents } from './electron-api.ts'
import { navigationAction } from './url-policy.ts'
import { MIN_SIZE, type WindowState } from './window-state.ts'

export interface WindowOptionsInput {
  preloadPath: string
  state: WindowState
  iconPath?: string
  title?: string
}

/** Electron's security checklist as options: isolated, sandboxed, no Node in the page, web security on. */
export function windowOptions({ preloadPath, state, iconPath, title = 'Sheaf' }: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title,
    width: state.width,
    height: state.height,
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : { center: true }),
    minWidth: MIN_SIZE.width,
    minHeight: MIN_SIZE.height,
    show: false,
    backgroundColor: '#ffffff',
    ...(iconPath ? { icon: iconPath } : {}),
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  }
}

/** Off-origin navigation goes to the system browser (http/https only); file:// and the rest are refused. */
export function hardenWebContents(contents: WebContents, appOrigin: string, openExternal: (url: string) => void): void {
  const guard = (event: { preventDefault(): void }, url: string) => {
    const action = navigationAction(url, appOrigin)
    if (action === 'allow') return
    event.preventDefault()
    if (action === 'external') openExternal(url)
  }
  contents.on('will-navigate', guard)
  contents.on('will-redirect', guard)
  contents.on('will-attach-webview', (event) => event.preventDefault())
  // The app has one window: window.open never creates another; web links go to the system browser.
  contents.setWindowOpenHandler(({ url }) => {
    if (navigationAction(url, appOrigin) === 'external') openExternal(url)
    return { action: 'deny' }
  })
}

/** The window asks for no permission the app needs; camera, notifications, geolocation... are denied. */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
  session.setPermissionCheckHandler(() => false)
  session.setDevicePermissionHandler?.(() => false)
}

export interface MainWindowInput extends WindowOptionsInput {
  electron: Pick<ElectronApi, 'BrowserWindow' | 'shell'>
  appOrigin: string
  /** First URL: the one-time sign-in address, which redirects to the UI. */
  startUrl: string
}

export function createMainWindow(input: MainWindowInput): BrowserWindow {
  const { electron, appOrigin, startUrl } = input
  const win = new electron.BrowserWindow(windowOptions(input))
  hardenWebContents(win.webContents, appOrigin, (url) => void electron.shell.openExternal(url))
  denyPermissions(win.webContents.session)
  if (input.state.maximized) win.maximize()
  win.once('ready-to-show', () => win.show())
  void win.loadURL(startUrl)
  return win
}
