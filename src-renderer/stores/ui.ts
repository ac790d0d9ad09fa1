import { create } from 'zustand'

/** App-wide overlays: the command palette, the shortcuts sheet, the mobile navigation drawer. */
interface UiState {
  paletteOpen: boolean
  shortcutsOpen: boolean
  navOpen: boolean
  /** Files dropped anywhere in the window, waiting for the import page to take them. */
  pendingFiles: File[]
  setPalette: (open: boolean) => void
  setShortcuts: (open: boolean) => void
  setNav: (open: boolean) => void
  queueFiles: (files: File[]) => void
  takeFiles: () => File[]
}

export const useUiStore = create<UiState>((set, get) => ({
  paletteOpen: false,
  shortcutsOpen: false,
  navOpen: false,
  pendingFiles: [],
  setPalette: (paletteOpen) => set({ paletteOpen, shortcutsOpen: false }),
  setShortcuts: (shortcutsOpen) => set({ shortcutsOpen, paletteOpen: false }),
  setNav: (navOpen) => set({ navOpen }),
  queueFiles: (files) => set((s) => ({ pendingFiles: [...s.pendingFiles, ...files] })),
  takeFiles() {
    const files = get().pendingFiles
    set({ pendingFiles: [] })
    return files
  },
}))
