// Bundled as one CommonJS file (a sandboxed preload can neither be ESM nor require local files).
import { contextBridge, ipcRenderer } from 'electron'
import { DESKTOP_CHANNELS as C, type SheafDesktopApi } from '../../src-shared/desktop-api.ts'

const api: SheafDesktopApi = {
  isDesktop: true,
  importWithDialog: () => ipcRenderer.invoke(C.importWithDialog),
  exportWithDialog: (format) => ipcRenderer.invoke(C.exportWithDialog, format),
  getOpenAtLogin: () => ipcRenderer.invoke(C.getOpenAtLogin),
  setOpenAtLogin: (open) => ipcRenderer.invoke(C.setOpenAtLogin, open),
  onLibraryChanged: (listener) => {
    const wrapped = () => listener()
    ipcRenderer.on(C.libraryChanged, wrapped)
    return () => void ipcRenderer.removeListener(C.libraryChanged, wrapped)
  },
}

contextBridge.exposeInMainWorld('sheafDesktop', api)
