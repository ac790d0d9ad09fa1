// No runtime imports: the preload bundles this file and must stay a few lines of CommonJS.
import type { ExportFormat } from './schemas/export.ts'

export type { ExportFormat }

/**
 * What the desktop window's preload exposes as `window.sheafDesktop`. The renderer treats it as
 * optional (absent in a browser) and keeps talking to the server over HTTP for all data.
 */
export interface SheafDesktopApi {
  readonly isDesktop: true
  /** Native open dialog; the chosen files are imported. Null when the dialog was cancelled. */
  importWithDialog(): Promise<DesktopImportResult | null>
  /** Native save dialog, then the export is written there. Null when cancelled. */
  exportWithDialog(format: ExportFormat): Promise<DesktopExportResult | null>
  getOpenAtLogin(): Promise<boolean>
  setOpenAtLogin(open: boolean): Promise<boolean>
  /** Called after the shell imported files (opened with the app, or chosen in its dialog); returns an unsubscribe. */
  onLibraryChanged(listener: () => void): () => void
}

export interface DesktopImportResult {
  files: { path: string; ok: boolean; message: string }[]
}
export interface DesktopExportResult {
  path: string
  bytes: number
}

/** IPC channels, one per method; every argument is validated in the main process. */
export const DESKTOP_CHANNELS = {
  importWithDialog: 'sheaf:import-with-dialog',
  exportWithDialog: 'sheaf:export-with-dialog',
  getOpenAtLogin: 'sheaf:get-open-at-login',
  setOpenAtLogin: 'sheaf:set-open-at-login',
  /** main → renderer only. */
  libraryChanged: 'sheaf:library-changed',
} as const satisfies Record<Exclude<keyof SheafDesktopApi, 'isDesktop' | 'onLibraryChanged'> | 'libraryChanged', `sheaf:${string}`>

/** POST /api/auth/desktop ({token}) or GET ?token=: the one-time sign-in of the desktop window. */
export const DESKTOP_LOGIN_PATH = '/api/auth/desktop'
