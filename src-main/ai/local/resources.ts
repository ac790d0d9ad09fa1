import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The offline toolkit reads its data from `resources/` at the repo root. A packaged app may keep
 * them elsewhere, so every loader takes a directory; this is only the default.
 */
export const DEFAULT_RESOURCES_DIR = join(import.meta.dirname, '..', '..', '..', 'resources')

export const readResourceJson = <T>(name: string, dir = DEFAULT_RESOURCES_DIR): T =>
  JSON.parse(readFileSync(join(dir, name), 'utf8')) as T

/** Read-only tables are loaded once per directory: they are data, not services. */
export const memoByDir = <T>(load: (dir: string) => T): ((dir?: string) => T) => {
  const cache = new Map<string, T>()
  return (dir = DEFAULT_RESOURCES_DIR) => {
    let v = cache.get(dir)
    if (v === undefined) {
      v = load(dir)
      cache.set(dir, v)
    }
    return v
  }
}
