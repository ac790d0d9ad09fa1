import type { ElectronApi, MenuItemConstructorOptions } from './electron-api.ts'
import { lanLine, pipelineLine, type ShellActions, type ShellState } from './shell-state.ts'

export function trayTooltip(state: ShellState): string {
  return `Sheaf — ${lanLine(state.lan)} — ${pipelineLine(state.pipeline)}`
}

/** The tray menu: two status lines (sharing, analysis) and the few things worth a click. */
export function trayTemplate(state: ShellState, actions: ShellActions): MenuItemConstructorOptions[] {
  return [
    { label: lanLine(state.lan), enabled: false },
    { label: pipelineLine(state.pipeline), enabled: false },
    { type: 'separator' },
    { label: 'Open Sheaf', click: () => actions.showWindow() },
    { label: 'Share on Home Network', type: 'checkbox', checked: state.lan.running, click: (i) => actions.setLanSharing(i.checked) },
    { label: 'Copy Network Address', enabled: state.lan.running, click: () => actions.copyLanAddress() },
    { type: 'separator' },
    { label: 'Quit Sheaf', click: () => actions.quit() },
  ]
}

export interface ShellTray {
  update(state: ShellState): void
  destroy(): void
}

export function createTray(electron: Pick<ElectronApi, 'Tray' | 'Menu' | 'nativeImage'>, iconPath: string, actions: ShellActions): ShellTray {
  const image = electron.nativeImage.createFromPath(iconPath)
  const tray = new electron.Tray(image.isEmpty() ? image : image.resize({ width: 16, height: 16 }))
  tray.on('click', () => actions.showWindow())
  return {
    update(state) {
      tray.setToolTip(trayTooltip(state))
      tray.setContextMenu(electron.Menu.buildFromTemplate(trayTemplate(state, actions)))
    },
    destroy: () => tray.destroy(),
  }
}
