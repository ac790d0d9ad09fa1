import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { guardedFetch, MediaFetchError, type GuardedFetchOptions } from './guarded-fetch.ts'

const TYPES: Array<[string, string, (b: Buffer) => boolean]> = [
  ['jpg', 'image/jpeg', (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ['png', 'image/png', (b) => b.readUInt32BE(0) === 0x89504e47],
  ['gif', 'image/gif', (b) => b.toString('latin1', 0, 4) === 'GIF8'],
  ['webp', 'image/webp', (b) => b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP'],
  ['avif', 'image/avif', (b) => b.toString('latin1', 4, 12) === 'ftypavif'],
]

/** The image type by its bytes (a server's content-type is not trusted), or null when not an image we keep. */
export function sniffImage(data: Buffer): { ext: string; mime: string } | null {
  if (data.length < 12) return null
  const t = TYPES.find(([, , test]) => test(data))
  return t ? { ext: t[0], mime: t[1] } : null
}

const MIME_BY_EXT: Record<string, string> = Object.fromEntries(TYPES.map(([ext, mime]) => [ext, mime]))

export interface MediaCache {
  readonly dir: string
  /** Downloads `url` once (guarded) into the cache; a second call for the same URL reads the file. */
  fetch(url: string, signal?: AbortSignal): Promise<{ file: string; mime: string; data: Buffer }>
  saveThumbnail(file: string, data: Buffer): string
  /** A cached file by its stored name; null when missing or the name is not one of ours. */
  read(file: string): { data: Buffer; mime: string } | null
}

export interface MediaCacheOptions {
  dir: string
  /** Read at every fetch, so the setting applies without a restart. */
  allowPrivate: () => boolean
  fetchOptions?: Omit<GuardedFetchOptions, 'allowPrivate' | 'signal'>
  /** How long a host that could not be reached is not asked again (default a minute). */
  unreachableForMs?: number
  now?: () => number
}

/**
 * Hosts that could not be reached lately. Offline, every image of a library lives on the same host
 * and each lookup can take the resolver's full time-out (5 s here): one failure answers for the rest.
 */
function createHostMemo(forMs: number, now: () => number) {
  const down = new Map<string, { until: number; reason: string }>()
  return {
    check(url: string): void {
      const host = hostOf(url)
      const d = host === null ? undefined : down.get(host)
      if (!d) return
      if (d.until > now()) throw new MediaFetchError(`${host} could not be reached a moment ago (${d.reason}); it is tried again after a minute`, { unreachable: true })
      down.delete(host!)
    },
    failed(url: string, e: unknown): void {
      const host = hostOf(url)
      if (host !== null && e instanceof MediaFetchError && e.unreachable) down.set(host, { until: now() + forMs, reason: e.message })
    },
  }
}

const hostOf = (url: string): string | null => URL.parse(url)?.host ?? null

const SAFE_NAME = /^[a-f0-9]{32}(\.thumb)?\.(jpg|png|gif|webp|avif)$/

export function createMediaCache({ dir, allowPrivate, fetchOptions, unreachableForMs = 60_000, now = Date.now }: MediaCacheOptions): MediaCache {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const hosts = createHostMemo(unreachableForMs, now)
  const keyOf = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 32)
  const existing = (key: string) => TYPES.map(([ext]) => `${key}.${ext}`).find((f) => existsSync(join(dir, f))) ?? null

  return {
    dir,
    async fetch(url, signal) {
      const key = keyOf(url)
      const have = existing(key)
      if (have) return { file: have, mime: MIME_BY_EXT[have.split('.').pop()!], data: readFileSync(join(dir, have)) }
      hosts.check(url)
      let data: Buffer
      try {
        ;({ data } = await guardedFetch(url, { ...fetchOptions, allowPrivate: allowPrivate(), signal }))
      } catch (e) {
        hosts.failed(url, e)
        throw e
      }
      const type = sniffImage(data)
      if (!type) throw new MediaFetchError('not an image (jpeg, png, gif, webp or avif)')
      const file = `${key}.${type.ext}`
      const tmp = join(dir, `${file}.${process.pid}.tmp`)
      writeFileSync(tmp, data, { mode: 0o600 })
      renameSync(tmp, join(dir, file))
      return { file, mime: type.mime, data }
    },
    saveThumbnail(file, data) {
      const name = `${file.split('.')[0]}.thumb.webp`
      writeFileSync(join(dir, name), data, { mode: 0o600 })
      return name
    },
    read(file) {
      const name = basename(file)
      if (name !== file || !SAFE_NAME.test(name)) return null
      const path = join(dir, name)
      if (!existsSync(path)) return null
      return { data: readFileSync(path), mime: MIME_BY_EXT[name.split('.').pop()!] }
    },
  }
}
