import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { lookup } from 'node:dns/promises'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMediaCache, guardedFetch, isPrivateAddress } from '../../src-main/media/index.ts'

let server: Server
let base: string
let png: Buffer
const served = new Map<string, number>()

beforeAll(async () => {
  png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#336699' } }).png().toBuffer()
  server = createServer((req, res) => {
    served.set(req.url!, (served.get(req.url!) ?? 0) + 1)
    if (req.url === '/img.png' || req.url === '/again.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png)
    if (req.url === '/to-loopback') return res.writeHead(302, { location: `${base}/img.png` }).end()
    if (req.url === '/to-metadata') return res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
    if (req.url === '/big') return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(2048))
    if (req.url === '/slow') return setTimeout(() => res.writeHead(200).end(png), 2000)
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end()
    res.writeHead(404).end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.9', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd12::1', '::ffff:127.0.0.1', '::ffff:a00:1', 'ff02::1'])('refuses %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true)
  })
  it.each(['93.184.216.34', '151.101.1.140', '2606:4700::6810:84e5'])('allows %s', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false)
  })
})

describe('guardedFetch', () => {
  it.each(['http://127.0.0.1/x.png', 'http://10.0.0.5/x.png', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/x.png', 'http://localhost/x.png', 'http://[::ffff:7f00:1]/x.png'])('refuses %s by default', async (url) => {
    await expect(guardedFetch(url)).rejects.toThrow(/refused/)
  })

  it('refuses a name that resolves to a private address, checked when connecting', async () => {
    const name = hostname()
    const addr = await lookup(name).catch(() => null)
    if (!addr || !isPrivateAddress(addr.address)) return console.warn(`skipping: ${name} does not resolve to a private address here`)
    await expect(guardedFetch(`http://${name}:${new URL(base).port}/img.png`)).rejects.toThrow(/resolves to a private address/)
  })

  it('refuses non-http schemes and credentials in URLs', async () => {
    await expect(guardedFetch('file:///etc/passwd')).rejects.toThrow(/only http and https/)
    await expect(guardedFetch('ftp://example.com/a.png')).rejects.toThrow(/only http and https/)
    await expect(guardedFetch('http://user:pw@example.com/a.png')).rejects.toThrow(/credentials/)
  })

  it('fetches from loopback only when the setting allows it', async () => {
    await expect(guardedFetch(`${base}/img.png`)).rejects.toThrow(/private address/)
    const r = await guardedFetch(`${base}/img.png`, { allowPrivate: true })
    expect(r.data.equals(png)).toBe(true)
  })

  it('re-checks every redirect', async () => {
    await expect(guardedFetch(`${base}/to-metadata`, { allowPrivate: true, maxRedirects: 0 })).rejects.toThrow(/too many redirects/)
    const trustedHosts = [new URL(base).host]
    expect((await guardedFetch(`${base}/img.png`, { trustedHosts })).data.equals(png)).toBe(true)
    await expect(guardedFetch(`${base}/to-metadata`, { trustedHosts })).rejects.toThrow(/refused: 169.254.169.254 is a private address/)
    const r = await guardedFetch(`${base}/to-loopback`, { allowPrivate: true })
    expect(r.finalUrl).toBe(`${base}/img.png`)
  })

  it('enforces size, time and redirect limits', async () => {
    await expect(guardedFetch(`${base}/big`, { allowPrivate: true, maxBytes: 1024 })).rejects.toThrow(/too large/)
    await expect(guardedFetch(`${base}/slow`, { allowPrivate: true, timeoutMs: 200 })).rejects.toThrow(/timed out/)
    await expect(guardedFetch(`${base}/loop`, { allowPrivate: true })).rejects.toThrow(/too many redirects/)
    await expect(guardedFetch(`${base}/missing`, { allowPrivate: true })).rejects.toThrow(/HTTP 404/)
  })
})

describe('media cache: hosts that could not be reached', () => {
  it('are not asked again for a minute, while other hosts and plain HTTP errors are unaffected', async () => {
    const probe = createServer()
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()))
    const port = (probe.address() as AddressInfo).port
    await new Promise<void>((r) => probe.close(() => r()))
    let now = 1_000_000
    const cache = createMediaCache({ dir: mkdtempSync(join(tmpdir(), 'sheaf-media-')), allowPrivate: () => true, now: () => now })
    const down = `http://127.0.0.1:${port}`

    await expect(cache.fetch(`${down}/a.png`)).rejects.toThrow(/could not fetch .*ECONNREFUSED/)
    // the host comes back, but within the minute it is not asked: no connection reaches it
    let hits = 0
    const back = createServer((_, res) => (hits++, res.writeHead(200, { 'content-type': 'image/png' }).end(png)))
    await new Promise<void>((r) => back.listen(port, '127.0.0.1', () => r()))
    try {
      await expect(cache.fetch(`${down}/b.png`)).rejects.toThrow(/could not be reached a moment ago \(could not fetch .*ECONNREFUSED/)
      expect(hits).toBe(0)
      await expect(cache.fetch(`${base}/missing`)).rejects.toThrow(/HTTP 404/)
      expect((await cache.fetch(`${base}/img.png`)).mime).toBe('image/png')
      now += 60_001
      expect((await cache.fetch(`${down}/b.png`)).mime).toBe('image/png')
      expect(hits).toBe(1)
    } finally {
      await new Promise<void>((r) => back.close(() => r()))
    }
  })

  it('a cancelled fetch says nothing about its host', async () => {
    const cache = createMediaCache({ dir: mkdtempSync(join(tmpdir(), 'sheaf-media-')), allowPrivate: () => true })
    const ac = new AbortController()
    const pending = cache.fetch(`${base}/slow`, ac.signal)
    setTimeout(() => ac.abort(), 50)
    await expect(pending).rejects.toThrow()
    expect((await cache.fetch(`${base}/img.png`)).mime).toBe('image/png')
  })
})

describe('media cache: what is cached', () => {
  it('is found by a new cache on the same directory, and a file removed behind its back is fetched again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-media-'))
    const first = createMediaCache({ dir, allowPrivate: () => true })
    const { file } = await first.fetch(`${base}/again.png`)
    expect(served.get('/again.png')).toBe(1)
    const second = createMediaCache({ dir, allowPrivate: () => true })
    expect(await second.fetch(`${base}/again.png`)).toMatchObject({ file, mime: 'image/png' })
    expect(served.get('/again.png')).toBe(1)
    rmSync(join(dir, file))
    expect((await second.fetch(`${base}/again.png`)).data.equals(png)).toBe(true)
    expect(served.get('/again.png')).toBe(2)
    expect(readdirSync(dir)).toEqual([file])
  })
})
