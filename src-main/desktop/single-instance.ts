import { existsSync, statSync } from 'node:fs'
import { extname, isAbsolute, resolve } from 'node:path'
import type { ElectronApi } from './electron-api.ts'

/** Files the app imports when opened with them (double-click, "Open with", drag onto the dock icon). */
export const IMPORTABLE_EXTENSIONS = ['.json', '.zip', '.js', '.csv']

const isFile = (p: string) => {
  try {
    return existsSync(p) && statSync(p).isFile()
  } catch {
    return false
  }
}

/**
 * The importable files named on a command line. Flags, the executable and the app path are skipped;
 * relative paths are resolved against the launching process's working directory.
 */
export function filesFromArgv(argv: readonly string[], cwd: string, exists: (p: string) => boolean = isFile): string[] {
  const out: string[] = []
  for (const arg of argv.slice(1)) {
    if (!arg || arg.startsWith('-')) continue
    if (!IMPORTABLE_EXTENSIONS.includes(extname(arg).toLowerCase())) continue
    const path = isAbsolute(arg) ? arg : resolve(cwd, arg)
    if (exists(path) && !out.includes(path)) out.push(path)
  }
  return out
}

export interface SingleInstanceInput {
  app: Pick<ElectronApi['app'], 'requestSingleInstanceLock' | 'on' | 'quit'>
  /** A second launch happened: bring the window forward. */
  focus: () => void
  /** Files to import, from a second launch or macOS's open-file. */
  openFiles: (paths: string[]) => void
  exists?: (p: string) => boolean
}

/**
 * One Sheaf per user: a second launch hands its files to the first and quits. Returns false in the
 * second instance (which should stop starting up).
 */
export function setupSingleInstance({ app, focus, openFiles, exists = isFile }: SingleInstanceInput): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return false
  }
  app.on('second-instance', (_event, argv, cwd) => {
    focus()
    const files = filesFromArgv(argv, cwd, exists)
    if (files.length) openFiles(files)
  })
  app.on('open-file', (event, path) => {
    event.preventDefault()
    if (IMPORTABLE_EXTENSIONS.includes(extname(path).toLowerCase())) openFiles([path])
  })
  return true
}
