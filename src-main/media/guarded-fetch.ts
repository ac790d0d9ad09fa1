import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { isPrivateAddress } from './address-policy.ts'

export interface GuardedFetchOptions {
  /** Let requests reach loopback/private/link-local addresses (setting `allowPrivateMediaFetch`). */
  allowPrivate?: boolean
  maxBytes?: number
  timeoutMs?: number
  maxRedirects?: number
  /** host:port pairs trusted even when private (one known image host), every other hop follows the rule. */
  trustedHosts?: string[]
  signal?: AbortSignal
}

export class MediaFetchError extends Error {
  /** The host could not be reached at all (name lookup, connection or time-out), as opposed to a refusal or a bad answer. */
  readonly unreachable: boolean
  constructor(message: string, opts: { unreachable?: boolean } = {}) {
    super(message)
    this.name = 'MediaFetchError'
    this.unreachable = opts.unreachable ?? false
  }
}

export const MEDIA_MAX_BYTES = 15 * 1024 * 1024
export const MEDIA_TIMEOUT_MS = 20_000

/**
 * Resolves the name and refuses private targets at connect time (inside `lookup`), so a DNS answer
 * that changes between check and connect cannot slip through.
 */
const guardedLookup = (allowPrivate: boolean): LookupFunction => (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0)
    const list = addresses as unknown as LookupAddress[]
    const bad = list.find((a) => isPrivateAddress(a.address))
    if (bad && !allowPrivate) {
      return callback(Object.assign(new MediaFetchError(`refused: ${hostname} resolves to a private address (${bad.address})`), { code: 'EPRIVATE' }), '', 0)
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list)
    callback(null, list[0].address, list[0].family)
  })
}

function checkUrl(raw: string, allowPrivate: boolean, trusted: string[]): { url: URL; allowPrivate: boolean } {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new MediaFetchError(`refused: not a URL (${raw.slice(0, 100)})`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new MediaFetchError(`refused: only http and https media are fetched (${u.protocol})`)
  if (u.username || u.password) throw new MediaFetchError('refused: URLs with credentials are not fetched')
  if (trusted.includes(u.host)) return { url: u, allowPrivate: true }
  const host = u.hostname.replace(/^\[|\]$/g, '')
  if (isIP(host) && isPrivateAddress(host) && !allowPrivate) throw new MediaFetchError(`refused: ${host} is a private address`)
  if (!isIP(host) && /^(localhost|.*\.localhost)$/i.test(host) && !allowPrivate) throw new MediaFetchError(`refused: ${host} is this machine`)
  return { url: u, allowPrivate }
}

function once(u: URL, opts: { allowPrivate: boolean; signal: AbortSignal }): Promise<{ res: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(u, {
      method: 'GET',
      headers: { 'user-agent': 'Sheaf/0.1 (media cache)', accept: 'image/*,video/*;q=0.8' },
      lookup: guardedLookup(opts.allowPrivate),
      signal: opts.signal,
    })
    req.on('response', (res) => resolve({ res }))
    req.on('error', reject)
    req.end()
  })
}

/** GET with SSRF guard, re-checked redirects, a size cap and a time limit. */
export async function guardedFetch(url: string, options: GuardedFetchOptions = {}): Promise<{ data: Buffer; contentType: string | null; finalUrl: string }> {
  const opts = {
    allowPrivate: options.allowPrivate ?? false,
    maxBytes: options.maxBytes ?? MEDIA_MAX_BYTES,
    timeoutMs: options.timeoutMs ?? MEDIA_TIMEOUT_MS,
    maxRedirects: options.maxRedirects ?? 4,
  }
  const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(opts.timeoutMs)]) : AbortSignal.timeout(opts.timeoutMs)
  const trusted = options.trustedHosts ?? []
  let { url: current, allowPrivate } = checkUrl(url, opts.allowPrivate, trusted)
  for (let hop = 0; ; hop++) {
    let res: IncomingMessage
    try {
      ;({ res } = await once(current, { ...opts, allowPrivate, signal }))
    } catch (e) {
      if (e instanceof MediaFetchError) throw e
      // the caller's own cancel says nothing about the host
      const unreachable = !options.signal?.aborted
      if ((e as Error).name === 'TimeoutError' || signal.aborted) throw new MediaFetchError(`timed out after ${opts.timeoutMs} ms`, { unreachable })
      throw new MediaFetchError(`could not fetch (${(e as Error).message})`, { unreachable })
    }
    const status = res.statusCode ?? 0
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume()
      if (hop >= opts.maxRedirects) throw new MediaFetchError(`too many redirects (more than ${opts.maxRedirects})`)
      ;({ url: current, allowPrivate } = checkUrl(new URL(res.headers.location, current).href, opts.allowPrivate, trusted))
      continue
    }
    if (status !== 200) {
      res.resume()
      throw new MediaFetchError(`HTTP ${status}`)
    }
    const declared = Number(res.headers['content-length'] ?? NaN)
    if (declared > opts.maxBytes) {
      res.destroy()
      throw new MediaFetchError(`too large (${declared} bytes, limit ${opts.maxBytes})`)
    }
    const chunks: Buffer[] = []
    let size = 0
    try {
      for await (const chunk of res) {
        size += (chunk as Buffer).length
        if (size > opts.maxBytes) {
          res.destroy()
          throw new MediaFetchError(`too large (over ${opts.maxBytes} bytes)`)
        }
        chunks.push(chunk as Buffer)
      }
    } catch (e) {
      if (e instanceof MediaFetchError) throw e
      throw new MediaFetchError(signal.aborted ? `timed out after ${opts.timeoutMs} ms` : `download failed (${(e as Error).message})`)
    }
    return { data: Buffer.concat(chunks), contentType: (res.headers['content-type'] as string | undefined) ?? null, finalUrl: current.href }
  }
}
