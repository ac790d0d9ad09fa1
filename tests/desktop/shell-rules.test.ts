import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import { createIpc, senderProblem } from '../../src-main/desktop/ipc.ts'
import { autostartEntry, createLoginItem } from '../../src-main/desktop/login-item.ts'
import { buildMenuTemplate } from '../../src-main/desktop/menu.ts'
import type { ShellActions, ShellState } from '../../src-main/desktop/shell-state.ts'
import { filesFromArgv, setupSingleInstance } from '../../src-main/desktop/single-instance.ts'
import { trayTemplate, trayTooltip } from '../../src-main/desktop/tray.ts'
import { isSafeExternalUrl, navigationAction } from '../../src-main/desktop/url-policy.ts'
import { createMainWindow, windowOptions } from '../../src-main/desktop/window.ts'
import { DEFAULT_WINDOW_STATE, clampToDisplays, loadWindowState, saveWindowState, trackWindowState } from '../../src-main/desktop/window-state.ts'
import { createElectronStub, ipcEvent, type StubWindow } from './electron-stub.ts'

const ORIGIN = 'http://127.0.0.1:41234'

describe('url policy', () => {
  it.each([
    [`${ORIGIN}/`, 'allow'],
    [`${ORIGIN}/bookmarks/12?x=1#y`, 'allow'],
    ['http://127.0.0.1:41235/', 'external'],
    ['https://x.com/someone/status/1', 'external'],
    ['http://example.org/a', 'external'],
    ['file:///etc/passwd', 'deny'],
    ['file:///home/me/bookmarks.json', 'deny'],
    ['javascript:alert(1)', 'deny'],
    ['data:text/html,<script>1</script>', 'deny'],
    ['https://user:pw@example.com/', 'deny'],
    ['smb://nas/share', 'deny'],
    ['not a url', 'deny'],
  ])('%s → %s', (url, action) => {
    expect(navigationAction(url, ORIGIN)).toBe(action)
  })

  it('hands only http(s) URLs without credentials to the system browser', () => {
    expect(isSafeExternalUrl('https://example.com')).toBe(true)
    expect(isSafeExternalUrl('mailto:a@b.c')).toBe(false)
    expect(isSafeExternalUrl('https://a:b@example.com')).toBe(false)
  })
})

describe('main window', () => {
  it('is isolated, sandboxed and without Node', () => {
    const o = windowOptions({ preloadPath: '/p/preload.cjs', state: DEFAULT_WINDOW_STATE })
    expect(o.webPreferences).toMatchObject({
      preload: '/p/preload.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false,
      nodeIntegrationInSubFrames: false, webSecurity: true, webviewTag: false, navigateOnDragDrop: false,
    })
    expect(o.show).toBe(false)
    expect(o.center).toBe(true)
  })

  it('keeps navigation on its origin, sends web links to the browser, never follows dropped files', () => {
    const { electron, rec } = createElectronStub()
    const win = createMainWindow({ electron, appOrigin: ORIGIN, startUrl: `${ORIGIN}/api/auth/desktop?token=t`, preloadPath: '/p', state: DEFAULT_WINDOW_STATE }) as unknown as StubWindow
    expect(win.loaded).toEqual([`${ORIGIN}/api/auth/desktop?token=t`])
    const wc = win.webContents
    expect(wc.navigate('will-navigate', `${ORIGIN}/search`)).toBe(false)
    expect(wc.navigate('will-navigate', 'file:///home/me/export.json')).toBe(true)
    expect(wc.navigate('will-navigate', 'https://x.com/a')).toBe(true)
    expect(wc.navigate('will-redirect', 'http://evil.example/')).toBe(true)
    expect(rec.externalUrls).toEqual(['https://x.com/a', 'http://evil.example/'])
    expect(wc.openHandler!({ url: 'https://example.com/post' })).toEqual({ action: 'deny' })
    expect(wc.openHandler!({ url: `${ORIGIN}/other` })).toEqual({ action: 'deny' })
    expect(wc.openHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' })
    expect(rec.externalUrls).toEqual(['https://x.com/a', 'http://evil.example/', 'https://example.com/post'])
    let attached = false
    wc.emit('will-attach-webview', { preventDefault: () => (attached = true) })
    expect(attached).toBe(true)
  })

  it('denies every permission request and check', () => {
    const { electron } = createElectronStub()
    const win = createMainWindow({ electron, appOrigin: ORIGIN, startUrl: ORIGIN, preloadPath: '/p', state: DEFAULT_WINDOW_STATE }) as unknown as StubWindow
    const answers: boolean[] = []
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read']) win.webContents.permissionRequest!(null, p, (ok) => answers.push(ok))
    expect(answers).toEqual([false, false, false, false])
    expect(win.webContents.permissionCheck!(null, 'media')).toBe(false)
  })
})

describe('validated IPC', () => {
  it('accepts only the app origin in the top frame', () => {
    expect(senderProblem(ipcEvent(`${ORIGIN}/x`) as never, ORIGIN)).toBeNull()
    expect(senderProblem(ipcEvent('https://evil.example/') as never, ORIGIN)).toMatch(/not the app/)
    expect(senderProblem(ipcEvent(`${ORIGIN}/x`, {}) as never, ORIGIN)).toMatch(/sub-frames/)
    expect(senderProblem({ senderFrame: null } as never, ORIGIN)).toMatch(/gone/)
  })

  it('runs a handler for a good call, refuses bad senders and bad arguments', async () => {
    const { electron, rec } = createElectronStub()
    const refused: string[] = []
    const ipc = createIpc({ ipcMain: electron.ipcMain, appOrigin: ORIGIN, onRefused: (_c, why) => refused.push(why) })
    ipc.handle('sheaf:double', z.tuple([z.number()]), (n) => n * 2)
    const h = rec.ipc.get('sheaf:double')!
    expect(await h(ipcEvent(`${ORIGIN}/`), 21)).toBe(42)
    await expect(Promise.resolve().then(() => h(ipcEvent('file:///x'), 21))).rejects.toThrow(/Refused/)
    await expect(Promise.resolve().then(() => h(ipcEvent(`${ORIGIN}/`), 'x'))).rejects.toThrow(/bad arguments/)
    await expect(Promise.resolve().then(() => h(ipcEvent(`${ORIGIN}/`), 1, 2))).rejects.toThrow(/bad arguments/)
    expect(refused).toHaveLength(3)
    expect(() => ipc.handle('other', z.tuple([]), () => 1)).toThrow(/sheaf:/)
    ipc.dispose()
    expect(rec.ipc.size).toBe(0)
  })
})

describe('single instance and opened files', () => {
  const exists = (p: string) => p.startsWith('/data/')
  it('picks importable files from a command line', () => {
    expect(filesFromArgv(['/opt/Sheaf/sheaf', '--hidden', 'likes.json', '/data/b.ZIP', '/data/notes.txt', '/data/c.csv', '/elsewhere/d.json'], '/data'))
      .toEqual([])
    expect(filesFromArgv(['/opt/Sheaf/sheaf', '--hidden', 'likes.json', '/data/b.ZIP', '/data/notes.txt', '/data/c.csv', '/elsewhere/d.json'], '/data', exists))
      .toEqual(['/data/likes.json', '/data/b.ZIP', '/data/c.csv'])
  })

  it('a second launch focuses the first and hands over its files; macOS open-file too', () => {
    const { electron, app } = createElectronStub()
    let focused = 0
    const opened: string[][] = []
    expect(setupSingleInstance({ app: electron.app, focus: () => focused++, openFiles: (f) => opened.push(f), exists })).toBe(true)
    app.emit('second-instance', {}, ['/opt/Sheaf/sheaf', 'export.json'], '/data')
    app.emit('second-instance', {}, ['/opt/Sheaf/sheaf'], '/data')
    let prevented = false
    app.emit('open-file', { preventDefault: () => (prevented = true) }, '/data/archive.zip')
    expect(focused).toBe(2)
    expect(opened).toEqual([['/data/export.json'], ['/data/archive.zip']])
    expect(prevented).toBe(true)
  })

  it('the second instance quits at once', () => {
    const { electron, rec } = createElectronStub({ singleInstance: false })
    expect(setupSingleInstance({ app: electron.app, focus: () => undefined, openFiles: () => undefined })).toBe(false)
    expect(rec.quitCalls).toBe(1)
  })
})

describe('window state', () => {
  const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }]
  it('keeps a visible position and size', () => {
    expect(clampToDisplays({ x: 50, y: 60, width: 1000, height: 700, maximized: true }, screen))
      .toEqual({ x: 50, y: 60, width: 1000, height: 700, maximized: true })
  })
  it('drops a position on a display that is gone and shrinks to the largest display', () => {
    expect(clampToDisplays({ x: 2500, y: 100, width: 3000, height: 2000, maximized: false }, screen))
      .toEqual({ width: 1920, height: 1080, maximized: false })
  })
  it('keeps a position on a second display left of the first, and enforces the minimum size', () => {
    const two = [...screen, { x: -1280, y: 0, width: 1280, height: 1024 }]
    expect(clampToDisplays({ x: -1200, y: 20, width: 300, height: 200, maximized: false }, two))
      .toEqual({ x: -1200, y: 20, width: 720, height: 480, maximized: false })
  })
  it('drops a position whose title bar is above the screen', () => {
    expect(clampToDisplays({ x: 10, y: -500, width: 900, height: 700, maximized: false }, screen)).toEqual({ width: 900, height: 700, maximized: false })
  })
  it('round-trips through a JSON file and survives a damaged one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-ws-'))
    const file = join(dir, 'window-state.json')
    expect(loadWindowState(file)).toEqual(DEFAULT_WINDOW_STATE)
    saveWindowState(file, { x: 5, y: 6, width: 800, height: 600, maximized: false })
    expect(loadWindowState(file)).toEqual({ x: 5, y: 6, width: 800, height: 600, maximized: false })
    writeFileSync(file, '{"width": "wide"')
    expect(loadWindowState(file)).toEqual(DEFAULT_WINDOW_STATE)
  })
  it('saves the normal bounds when the window closes', () => {
    const { electron } = createElectronStub()
    const win = new electron.BrowserWindow({ width: 900, height: 650, x: 40, y: 30 }) as unknown as StubWindow
    const saved: unknown[] = []
    trackWindowState(win, (s) => saved.push(s))
    win.maximized = true
    win.emit('close')
    expect(saved).toEqual([{ x: 40, y: 30, width: 900, height: 650, maximized: true }])
  })
})

const noop: ShellActions = {
  showWindow() {}, importWithDialog() {}, exportWithDialog() {}, setLanSharing() {}, copyLanAddress() {},
  setOpenAtLogin() {}, openDataFolder() {}, quit() {},
}
const shared: ShellState = {
  lan: { running: true, urls: ['https://192.0.2.5:5718'], error: null },
  pipeline: { status: 'running', progress: 42.4, stage: 'semantic_tagging' },
  openAtLogin: true,
}

describe('menu and tray', () => {
  type Item = { label?: string; role?: string; accelerator?: string; checked?: boolean; enabled?: boolean; submenu?: Item[]; click?: (i: Item) => void }
  const find = (items: Item[], label: string): Item | undefined =>
    items.flatMap((i) => [i, ...(i.submenu ?? [])]).find((i) => i.label === label)

  it('has the usual roles and Sheaf shortcuts; app menu only on macOS', () => {
    const mac = buildMenuTemplate({ platform: 'darwin', appName: 'Sheaf', state: shared, actions: noop, dev: false }) as Item[]
    const linux = buildMenuTemplate({ platform: 'linux', appName: 'Sheaf', state: shared, actions: noop, dev: false }) as Item[]
    expect(mac.map((i) => i.role ?? i.label)).toEqual(['appMenu', 'File', 'editMenu', 'View', 'windowMenu', 'help'])
    expect(linux.map((i) => i.role ?? i.label)).toEqual(['File', 'editMenu', 'View', 'windowMenu', 'help'])
    expect(find(linux, 'Import…')?.accelerator).toBe('CmdOrCtrl+O')
    expect(find(linux, 'Export…')?.accelerator).toBe('CmdOrCtrl+Shift+E')
    expect(find(linux, 'Quit')?.accelerator).toBe('Ctrl+Q')
    expect(find(linux, 'Share on Home Network')?.checked).toBe(true)
    expect(find(linux, 'Open at Login')?.checked).toBe(true)
    const view = linux.find((i) => i.label === 'View')!.submenu!.map((i) => i.role)
    expect(view).toContain('zoomIn')
    expect(view).not.toContain('toggleDevTools')
  })

  it('the sharing checkbox calls the action with its new state', () => {
    const calls: boolean[] = []
    const t = buildMenuTemplate({ platform: 'linux', appName: 'Sheaf', state: shared, actions: { ...noop, setLanSharing: (on) => calls.push(on) }, dev: true }) as Item[]
    find(t, 'Share on Home Network')!.click!({ checked: false })
    expect(calls).toEqual([false])
  })

  it('the tray shows sharing and pipeline state', () => {
    const items = trayTemplate(shared, noop) as Item[]
    expect(items[0]).toMatchObject({ label: 'Shared on your network: https://192.0.2.5:5718', enabled: false })
    expect(items[1]).toMatchObject({ label: 'Analysis: 42% (semantic tagging)', enabled: false })
    const off = trayTemplate({ lan: { running: false, urls: [], error: null }, pipeline: null, openAtLogin: false }, noop) as Item[]
    expect(off.slice(0, 2).map((i) => i.label)).toEqual(['Not shared on your network', 'Analysis: not started'])
    expect(find(off, 'Copy Network Address')?.enabled).toBe(false)
    expect(trayTooltip({ ...shared, pipeline: { status: 'completed', progress: 100, stage: null } })).toContain('Analysis: up to date')
  })
})

describe('open at login', () => {
  it('uses an XDG autostart entry on Linux', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-xdg-'))
    const { electron } = createElectronStub()
    const item = createLoginItem({ app: electron.app, platform: 'linux', execPath: '/opt/Sheaf App/sheaf', env: { XDG_CONFIG_HOME: dir } })
    expect(item.get()).toBe(false)
    expect(item.set(true)).toBe(true)
    expect(readFileSync(join(dir, 'autostart', 'sheaf.desktop'), 'utf8')).toContain('Exec=env MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=4194304 "/opt/Sheaf App/sheaf" --hidden')
    expect(item.set(false)).toBe(false)
    expect(autostartEntry('/usr/bin/sheaf')).toContain('Exec=env MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=4194304 /usr/bin/sheaf --hidden')
  })
  it('uses the login-item API elsewhere', () => {
    const { electron, rec } = createElectronStub()
    const item = createLoginItem({ app: electron.app, platform: 'darwin', execPath: '/Applications/Sheaf.app' })
    expect(item.set(true)).toBe(true)
    expect(rec.loginItem).toEqual({ openAtLogin: true, args: ['--hidden'] })
  })
})
