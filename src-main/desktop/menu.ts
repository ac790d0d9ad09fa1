import type { MenuItemConstructorOptions } from './electron-api.ts'
import type { ShellActions, ShellState } from './shell-state.ts'

export interface MenuInput {
  platform: NodeJS.Platform
  appName: string
  state: ShellState
  actions: ShellActions
  /** Developer tools only in development builds. */
  dev: boolean
}

/** The application menu: the platform's usual roles and shortcuts plus Sheaf's own File items. */
export function buildMenuTemplate({ platform, appName, state, actions, dev }: MenuInput): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Import…', accelerator: 'CmdOrCtrl+O', click: () => actions.importWithDialog() },
      { label: 'Export…', accelerator: 'CmdOrCtrl+Shift+E', click: () => actions.exportWithDialog() },
      { type: 'separator' },
      {
        label: 'Share on Home Network',
        type: 'checkbox',
        checked: state.lan.running,
        click: (item) => actions.setLanSharing(item.checked),
      },
      { label: 'Copy Network Address', enabled: state.lan.running, click: () => actions.copyLanAddress() },
      { type: 'separator' },
      { label: 'Open at Login', type: 'checkbox', checked: state.openAtLogin, click: (item) => actions.setOpenAtLogin(item.checked) },
      { label: 'Show Library Folder', click: () => actions.openDataFolder() },
      { type: 'separator' },
      mac ? { role: 'close' } : { label: 'Quit', accelerator: 'Ctrl+Q', click: () => actions.quit() },
    ],
  }
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(dev ? [{ role: 'toggleDevTools' } as const] : []),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  }
  return [
    ...(mac ? [{ label: appName, role: 'appMenu' } as MenuItemConstructorOptions] : []),
    file,
    { role: 'editMenu' },
    view,
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: 'Show Library Folder', click: () => actions.openDataFolder() }] },
  ]
}
