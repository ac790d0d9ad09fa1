import type * as Electron from 'electron'

/**
 * The parts of Electron the shell uses, passed in as one object (`createDesktop({ electron })`): the
 * real module in main.ts, a hand-written recording stub in tests (the Electron runtime is not needed
 * to test the shell's rules).
 */
export type ElectronApi = Pick<typeof Electron,
  'app' | 'BrowserWindow' | 'Menu' | 'Tray' | 'dialog' | 'shell' | 'ipcMain' | 'screen' | 'nativeImage' | 'clipboard'>

export type BrowserWindow = Electron.BrowserWindow
export type BrowserWindowConstructorOptions = Electron.BrowserWindowConstructorOptions
export type MenuItemConstructorOptions = Electron.MenuItemConstructorOptions
export type IpcMainInvokeEvent = Electron.IpcMainInvokeEvent
export type Session = Electron.Session
export type WebContents = Electron.WebContents
