import type { EventEmitter } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DESKTOP_CHANNELS } from '../../src-shared/desktop-api.ts'
import { backendFor } from '../../src-main/desktop/backend.ts'
import { createDesktop, type Desktop } from '../../src-main/desktop/desktop.ts'
import { Client, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { createElectronStub, ipcEvent, type Recorded, type StubWindow } from './electron-stub.ts'
import { itIf } from '../support/skip.ts'
import { NEEDS_FIXTURES } from '../support/fixtures.ts'

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/exports/derived/twillot_bookmarks.json')

let t: TestServer
let desktop: Desktop
let rec: Recorded
let win: StubWindow
let app: EventEmitter & { quit(): void }
const out = mkdtempSync(join(tmpdir(), 'sheaf-desktop-'))

beforeAll(async () => {
  t = await startTestServer()
  await signedIn(t, 'admin', 'owner@example.com')
  const stub = createElectronStub({
    openDialog: () => ({ canceled: false, filePaths: [FIXTURE] }),
    saveDialog: () => ({ canceled: false, filePath: join(out, 'export.json') }),
    downloads: out,
  })
  rec = stub.rec
  app = stub.app as EventEmitter & { quit(): void }
  desktop = (await createDesktop({
    electron: stub.electron,
    startBackend: async () => backendFor(t.sheaf, t.server, { reconnectMs: 60_000 }),
    preloadPath: '/app/out/preload/preload.cjs',
    iconPath: '/app/resources/icons/png/512x512.png',
    trayIconPath: '/app/resources/icons/png/32x32.png',
    argv: ['/opt/Sheaf/sheaf'],
    cwd: out,
    platform: 'linux',
    execPath: '/opt/Sheaf/sheaf',
    dev: false,
    env: { XDG_CONFIG_HOME: out },
  }))!
  win = rec.windows[0]
})
afterAll(async () => {
  await t.close().catch(() => undefined)
})

describe('the desktop shell over the real embedded server', () => {
  it('opens one hardened window whose first URL signs the owner in once', async () => {
    expect(rec.windows).toHaveLength(1)
    expect(win.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, preload: '/app/out/preload/preload.cjs' })
    const start = new URL(win.loaded[0])
    expect(start.origin).toBe(new URL(t.url).origin)
    expect(start.pathname).toBe('/api/auth/desktop')
    const c = new Client(t.url)
    const res = await c.get(start.pathname + start.search)
    expect(res.status).toBe(303)
    expect((await c.get('/api/auth/me')).body.user.email).toBe('owner@example.com')
    const again = new Client(t.url)
    await again.get(start.pathname + start.search)
    expect(again.cookie).toBeNull()
  })

  it('a second launch focuses the window instead of opening another, and imports its files', async () => {
    const before = win.focused
    app.emit('second-instance', {}, ['/opt/Sheaf/sheaf', join(out, 'nothing-here.json')], out)
    expect(rec.windows).toHaveLength(1)
    expect(win.focused).toBe(before + 1)
  })

  it('exposes the validated IPC channels and refuses foreign senders', async () => {
    const channels = [...rec.ipc.keys()].sort()
    expect(channels).toEqual(Object.values(DESKTOP_CHANNELS).filter((c) => c !== DESKTOP_CHANNELS.libraryChanged).sort())
    const get = rec.ipc.get(DESKTOP_CHANNELS.getOpenAtLogin)!
    expect(await get(ipcEvent(`${new URL(t.url).origin}/settings`))).toBe(false)
    await expect(Promise.resolve().then(() => get(ipcEvent('https://evil.example/')))).rejects.toThrow(/Refused/)
    const set = rec.ipc.get(DESKTOP_CHANNELS.setOpenAtLogin)!
    await expect(Promise.resolve().then(() => set(ipcEvent(`${new URL(t.url).origin}/`), 'yes'))).rejects.toThrow(/bad arguments/)
    expect(await set(ipcEvent(`${new URL(t.url).origin}/`), true)).toBe(true)
    expect(existsSync(join(out, 'autostart', 'sheaf.desktop'))).toBe(true)
  })

  itIf(existsSync(FIXTURE), NEEDS_FIXTURES)('imports files chosen in the native dialog and tells the window', async () => {
    const res = await desktop.importWithDialog()
    expect(res!.files).toHaveLength(1)
    expect(res!.files[0]).toMatchObject({ path: FIXTURE, ok: true })
    expect(res!.files[0].message).toMatch(/^\d+ new posts?, 0 already there/)
    expect(win.webContents.sent).toContain(DESKTOP_CHANNELS.libraryChanged)
    expect(rec.messages.at(-1)?.message).toBe('Import finished')
    const total = (await t.sheaf.app.request('/api/stats', { headers: { host: 'localhost', authorization: `Bearer ${(await t.sheaf.auth.sessions.issue(t.sheaf.localLogin.owner()!)).token}` } }))
    expect(total.status).toBe(200)
  })

  it('reports a file it cannot import without throwing', async () => {
    const res = await desktop.importPaths([join(out, 'missing.json')])
    expect(res.files[0]).toMatchObject({ ok: false })
    expect(rec.messages.at(-1)?.message).toBe('Some files could not be imported')
  })

  it('exports through the native save dialog', async () => {
    const res = await desktop.exportWithDialog('json')
    expect(rec.errors).toEqual([])
    expect(res).toEqual({ path: join(out, 'export.json'), bytes: statSync(join(out, 'export.json')).size })
    expect(res!.bytes).toBeGreaterThan(0)
    expect(() => JSON.parse(readFileSync(join(out, 'export.json'), 'utf8'))).not.toThrow()
  })

  it('menu and tray show LAN sharing state', () => {
    const tray = rec.trays[0]
    expect(tray.tooltip).toContain('Not shared on your network')
    expect((rec.applicationMenu as { label?: string }[]).map((m) => m.label ?? '')).toContain('File')
  })

  it('quits gracefully: the first quit is held until the server and database are closed', async () => {
    const quits = rec.quitCalls
    const willQuit = new Promise<void>((resolve) => app.once('will-quit', () => resolve()))
    app.quit()
    expect(desktop.phase()).toBe('quitting')
    await willQuit
    expect(desktop.phase()).toBe('closed')
    expect(rec.quitCalls).toBe(quits + 2)
    expect(rec.trays[0].destroyed).toBe(true)
    expect(rec.ipc.size).toBe(0)
    await expect(fetch(`${t.url}/api/health`)).rejects.toThrow()
  })
})
