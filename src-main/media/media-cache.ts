import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
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
  saveThumbnail(file: string, data: Buffer): Promise<string>
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
      if (d.until > now()) throw refusal(`${host} could not be reached a moment ago (${d.reason}); it is tried again after a minute`)
      down.delete(host!)
    },
    failed(url: string, e: unknown): void {
      const host = hostOf(url)
      if (host !== null && e instanceof MediaFetchError && e.unreachable) down.set(host, { until: now() + forMs, reason: e.message })
    },
  }
}

const hostOf = (url: string): string | null => URL.parse(url)?.host ?? null

/**
 * A host's remembered failure, without a stack: offline, every image of a library is refused this way,
 * and capturing a stack for each took ~110 ms of the HTTP thread in the 4 s of bench/load.ts's image stage.
 */
function refusal(message: string): MediaFetchError {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return new MediaFetchError(message, { unreachable: true })
  } finally {
    Error.stackTraceLimit = limit
  }
}

const SAFE_NAME = /^[a-f0-9]{32}(\.thumb)?\.(jpg|png|gif|webp|avif)$/
const ORIGINAL = /^([a-f0-9]{32})\.(jpg|png|gif|webp|avif)$/

/**
 * Which URL keys have a cached original, read from the directory once and kept up to date by this
 * process: a lookup per image is then a map read, not a file-system probe per image type.
 */
function createCacheIndex(dir: string) {
  let files: Promise<Map<string, string>> | null = null
  const load = async () => new Map((await readdir(dir)).flatMap((f) => {
    const m = ORIGINAL.exec(f)
    return m ? [[m[1], f] as [string, string]] : []
  }))
  return {
    get: async (key: string) => (await (files ??= load())).get(key) ?? null,
    set: async (key: string, file: string) => void (await (files ??= load())).set(key, file),
    forget: async (key: string) => void (await (files ??= load())).delete(key),
  }
}

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT'

export function createMediaCache({ dir, allowPrivate, fetchOptions, unreachableForMs = 60_000, now = Date.now }: MediaCacheOptions): MediaCache {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const hosts = createHostMemo(unreachableForMs, now)
  const keyOf = (url: string) => createHash('sha256').update(url).digest('hex').slice(0, 32)
  const cached = createCacheIndex(dir)
  const readCached = async (key: string) => {
    const file = await cached.get(key)
    if (!file) return null
    try {
      return { file, mime: MIME_BY_EXT[file.split('.').pop()!], data: await readFile(join(dir, file)) }
    } catch (e) {
      if (!isMissing(e)) throw e
      await cached.forget(key)
      return null
    }
  }

  return {
    dir,
    async fetch(url, signal) {
      const key = keyOf(url)
      const have = await readCached(key)
      if (have) return have
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
      await writeFile(tmp, data, { mode: 0o600 })
      await rename(tmp, join(dir, file))
      await cached.set(key, file)
      return { file, mime: type.mime, data }
    },
    async saveThumbnail(file, data) {
      const name = `${file.split('.')[0]}.thumb.webp`
      await writeFile(join(dir, name), data, { mode: 0o600 })
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
