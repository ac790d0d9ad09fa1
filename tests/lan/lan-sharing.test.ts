import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CA_CERT_CONTENT_TYPE, zJoinLink, zLanStatus } from '../../src-shared/schemas/lan.ts'
import { fixedNetwork } from '../../src-main/lan/index.ts'
import { Client, signedIn } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { LAN_ADDR, LAN_NAME, freePort, httpsFetch, tlsVerify, tryConnect } from './support.ts'
import { describeIf } from '../support/skip.ts'

const CHROMIUM = '/usr/bin/chromium'
let t: TestServer
let admin: Client
let member: Client
let port: number
let ca: string

beforeAll(async () => {
  t = await startTestServer({ lanNetwork: fixedNetwork([LAN_ADDR], [LAN_NAME, LAN_ADDR]) })
  admin = await signedIn(t, 'admin', 'owner@example.com')
  member = await signedIn(t, 'member')
  port = await freePort()
})
afterAll(() => t.close())

describe('sharing on the home network', () => {
  it('is off by default, and only an admin may see or change it', async () => {
    const res = await admin.get('/api/lan')
    expect(res.status).toBe(200)
    const s = zLanStatus.parse(res.body)
    expect(s).toMatchObject({ enabled: false, running: false, fingerprint: null })
    expect((await member.get('/api/lan')).status).toBe(403)
    expect((await member.put('/api/lan', { enabled: true })).status).toBe(403)
    expect((await new Client(t.url).get('/api/lan')).status).toBe(401)
    expect(await tryConnect(port)).toBe('ECONNREFUSED')
  })

  it('turns on: HTTPS on the LAN address, names added to the Host check, setting stored', async () => {
    const res = await admin.put('/api/lan', { enabled: true, port })
    expect(res.status).toBe(200)
    const s = zLanStatus.parse(res.body)
    expect(s).toMatchObject({ enabled: true, running: true, port, hosts: [LAN_NAME, LAN_ADDR], error: null })
    expect(s.urls).toEqual([`https://${LAN_NAME}:${port}`, `https://${LAN_ADDR}:${port}`])
    expect(s.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
    expect([...t.sheaf.extraHosts].sort()).toEqual([LAN_ADDR, LAN_NAME].sort())
  })

  it('offers the CA certificate publicly as application/x-x509-ca-cert', async () => {
    const res = await new Client(t.url).get('/api/lan/ca.crt')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(CA_CERT_CONTENT_TYPE)
    ca = res.body as string
    expect(ca).toMatch(/^-----BEGIN CERTIFICATE-----/)
  })

  it('proves the chain with node:tls against the CA, for the name and for the address', async () => {
    const byName = await tlsVerify(port, ca, LAN_NAME)
    expect(byName.authorized).toBe(true)
    const fp = (await admin.get('/api/lan')).body.fingerprint
    expect(byName.getPeerCertificate().fingerprint256).toBe(fp)
    byName.destroy()
    const byIp = await tlsVerify(port, ca)
    expect(byIp.authorized).toBe(true)
    byIp.destroy()
    await expect(tlsVerify(port, ca, 'other.local')).rejects.toThrow(/altnames|Hostname/i)
  })

  it('refuses a foreign Host on the LAN listener', async () => {
    const ok = await httpsFetch({ port, path: '/api/health', ca })
    expect(ok.status).toBe(200)
    const evil = await httpsFetch({ port, path: '/api/health', ca, host: `evil.example:${port}` })
    expect(evil.status).toBe(403)
    expect(JSON.parse(evil.body).code).toBe('FORBIDDEN')
  })

  it('never treats a LAN client as local: no first-run setup, no desktop sign-in', async () => {
    const setup = await httpsFetch({ port, path: '/api/auth/setup', ca })
    expect(JSON.parse(setup.body)).toMatchObject({ local: false })
    expect((await admin.get('/api/auth/setup')).body).toMatchObject({ local: true })
    const token = t.sheaf.localLogin.mint()
    const viaLan = await httpsFetch({
      port, path: '/api/auth/desktop', ca, method: 'POST',
      headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }),
    })
    expect(viaLan.status).toBe(403)
    expect(viaLan.headers['set-cookie']).toBeUndefined()
    // The token was seen on the network, so it is spent even for the window.
    expect((await new Client(t.url).post('/api/auth/desktop', { token })).status).toBe(401)
  })

  it('makes a join link with a QR code for a new invite', async () => {
    const res = await admin.post('/api/lan/join-link', { role: 'member' })
    expect(res.status).toBe(201)
    const link = zJoinLink.parse(res.body)
    expect(link.url).toBe(`https://${LAN_NAME}:${port}/join?code=${encodeURIComponent(link.inviteCode)}`)
    expect(link.qrSvg).toMatch(/^<svg[^>]*>/)
    expect(link.qrDataUrl.startsWith('data:image/svg+xml;base64,')).toBe(true)
    expect((await member.post('/api/lan/join-link', { role: 'admin' })).status).toBe(403)
  })

  describeIf(existsSync(CHROMIUM), 'needs Chromium at /usr/bin/chromium (apt-get install chromium)')('a household member joins from Chromium over HTTPS', () => {
    let browser: Browser
    beforeAll(async () => {
      const spki = t.sheaf.lan.tlsMaterial()!.spkiSha256
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
          '--no-first-run', '--disable-sync', '--disable-quic',
          `--host-resolver-rules=MAP ${LAN_NAME} ${LAN_ADDR}`, `--ignore-certificate-errors-spki-list=${spki}`],
      })
    })
    afterAll(() => browser?.close())

    it('registers with the invite, keeps the Secure cookie and uses it on the next request', async () => {
      const link = zJoinLink.parse((await admin.post('/api/lan/join-link', { role: 'member' })).body)
      const page = await browser.newPage()
      const nav = await page.goto(`https://${LAN_NAME}:${port}/api/health`)
      expect(nav?.status()).toBe(200)
      const code = new URL(link.url).searchParams.get('code')
      const registered = await page.evaluate(async (inviteCode) => {
        const r = await fetch('/api/auth/register', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'X-Sheaf-Request': '1' },
          body: JSON.stringify({ name: 'Phone Person', email: 'phone@example.com', password: 'a long enough password', inviteCode }),
        })
        return { status: r.status, body: await r.json() }
      }, code)
      expect(registered).toMatchObject({ status: 201, body: { user: { email: 'phone@example.com', role: 'member' } } })
      const cookies = await page.context().cookies()
      expect(cookies.find((c) => c.name === 'token')).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict', domain: LAN_NAME })
      const me = await page.evaluate(async () => {
        const r = await fetch('/api/auth/me')
        return { status: r.status, body: await r.json() }
      })
      expect(me).toMatchObject({ status: 200, body: { user: { email: 'phone@example.com', role: 'member' } } })
      // Roles apply on the LAN like anywhere else.
      const lanSettings = await page.evaluate(async () => (await fetch('/api/lan')).status)
      expect(lanSettings).toBe(403)
      await page.close()
    })
  })

  it('turns off: the listener is gone at once, open connections closed, names removed', async () => {
    const open = await tlsVerify(port, ca, LAN_NAME)
    const closed = new Promise<void>((resolve) => open.once('close', () => resolve()))
    const res = await admin.put('/api/lan', { enabled: false })
    expect(zLanStatus.parse(res.body)).toMatchObject({ enabled: false, running: false })
    await closed
    expect(await tryConnect(port)).toBe('ECONNREFUSED')
    expect(t.sheaf.extraHosts.size).toBe(0)
    // The loopback server goes on serving.
    expect((await admin.get('/api/lan')).status).toBe(200)
  })

  it('resumes at start-up when the stored setting says so, with the same CA', async () => {
    const caFp = (await admin.get('/api/lan')).body.caFingerprint
    await admin.put('/api/lan', { enabled: true, port })
    await t.sheaf.lan.stop()
    expect(await tryConnect(port)).toBe('ECONNREFUSED')
    const s = await t.sheaf.lan.resume()
    expect(s).toMatchObject({ enabled: true, running: true, port, caFingerprint: caFp })
    expect(await tryConnect(port)).toBe('connected')
    await admin.put('/api/lan', { enabled: false })
  })
})
