import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { resolveConfig } from '../../src-main/app/index.ts'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'
import { upload } from '../library/helpers.ts'
import { multipart, openSocket, parseRaw } from './raw-socket.ts'

// Issue 14, findings 1 and 4: an upload that stops arriving or is abandoned must not hold the
// import slot, and slow clients are answered (with {error, code}) within seconds, not minutes.

const posts = (n: number, from = 0) => JSON.stringify(Array.from({ length: n }, (_, i) => ({
  id_str: String(1855222380982907000n + BigInt(from + i)), full_text: `post number ${from + i}`, created_at: 'Sat Nov 09 12:14:18 +0000 2024',
})))

describe('slow, stalled and abandoned requests', () => {
  let t: TestServer
  let admin: Client
  beforeAll(async () => {
    t = await startTestServer({ env: { SHEAF_BODY_TIMEOUT_MS: '1500', SHEAF_HEADERS_TIMEOUT_MS: '1500' } })
    admin = await signedIn(t, 'admin')
  })
  afterAll(async () => t?.close())
  /** Bytes written on a fresh socket as they are, and the answer the server gives them. */
  const sendRaw = async (raw: string) => {
    const s = await openSocket(t.url)
    s.write(raw)
    return parseRaw(await s.response())
  }

  const startUpload = async (declared: number, sent: Buffer) => {
    const s = await openSocket(t.url)
    const { body, contentType } = multipart('big.json', Buffer.alloc(0))
    const head = body.subarray(0, body.indexOf('\r\n\r\n') + 4)
    s.write(`POST /api/import HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${admin.cookie}\r\nContent-Type: ${contentType}\r\nContent-Length: ${declared}\r\n\r\n`)
    s.write(head)
    s.write(sent)
    return s
  }

  it('an upload abandoned half-way (socket closed) does not wedge the next import', async () => {
    const s = await startUpload(50_000_000, Buffer.from(posts(200).slice(0, 5000)))
    await new Promise((r) => setTimeout(r, 200))
    s.close()
    const res = await upload(admin, { name: 'good.json', content: posts(3, 1000) })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ imported: 3, errors: 0 })
    const q = await admin.get('/api/import/queue')
    expect(q.status).toBe(200)
    expect(q.body.imports).toEqual([])
    expect(readdirSync(join(t.dataDir, 'tmp'))).toEqual([])
  }, 20_000)

  it('a stalled upload is answered 408 with {error, code}, and a healthy import meanwhile is not held up', async () => {
    const stalled = await startUpload(50_000_000, Buffer.from(posts(2000).slice(0, 100_000)))
    const good = await upload(admin, { name: 'good.json', content: posts(4, 2000) })
    expect(good.status).toBe(200)
    expect(good.body).toMatchObject({ imported: 4 })
    const answer = parseRaw(await stalled.response())
    expect(answer.status).toBe(408)
    expect(answer.body.code).toBe('VALIDATION_ERROR')
    expect(answer.body.error).toMatch(/stopped arriving/)
    // and the import after it works too
    const after = await upload(admin, { name: 'after.json', content: posts(2, 3000) })
    expect(after.body).toMatchObject({ imported: 2 })
    const total = (await admin.get('/api/bookmarks?limit=1')).body.total
    expect(total).toBe(9)
    expect(readdirSync(join(t.dataDir, 'tmp'))).toEqual([])
  }, 30_000)

  it('imports queue one behind the other, each with its place', async () => {
    const slow = new PassThrough()
    slow.write(posts(5, 4000).slice(0, 200))
    const first = t.sheaf.library.importStream({ input: slow, fileName: 'slow.json', userId: null })
    const second = t.sheaf.library.importStream({ input: Buffer.from(posts(2, 5000)), fileName: 'second.json', userId: null })
    await new Promise((r) => setTimeout(r, 50))
    const q = (await admin.get('/api/import/queue')).body.imports
    expect(q.map((e: any) => [e.fileName, e.state, e.place])).toEqual([['slow.json', 'running', 0], ['second.json', 'waiting', 1]])
    slow.end(posts(5, 4000).slice(200))
    expect(await first).toMatchObject({ imported: 5 })
    expect(await second).toMatchObject({ imported: 2 })
    expect((await admin.get('/api/import/queue')).body.imports).toEqual([])
  }, 30_000)

  it('a JSON body that stops arriving is answered 408 with {error, code}', async () => {
    const answer = await sendRaw('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"email":"a@')
    expect(answer.status).toBe(408)
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR' })
  }, 30_000)

  it('a chunked body that stops arriving is answered 408 too (only a request with neither length nor chunks has no body)', async () => {
    const answer = await sendRaw('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"ema\r\n')
    expect(answer.status).toBe(408)
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR' })
  }, 30_000)

  it('headers that never finish are answered 408 with {error, code}', async () => {
    const answer = await sendRaw('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
    expect(answer.status).toBe(408)
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR' })
  }, 30_000)

  it('over-long headers get 431 with {error, code}', async () => {
    const answer = await sendRaw(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)
    expect(answer.status).toBe(431)
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR' })
  }, 30_000)

  it.each([
    ['a space inside', 'Host: 127.0.0 .1'],
    ['two ports', 'Host: 127.0.0.1:80:80'],
    ['a bracket left open', 'Host: [::1'],
    ['none at all', ''],
  ])('a malformed Host header (%s) gets 400 or 403 with {error, code}', async (_what, host) => {
    const answer = await sendRaw(`GET /api/health HTTP/1.1\r\n${host ? `${host}\r\n` : ''}Connection: close\r\n\r\n`)
    expect([400, 403]).toContain(answer.status)
    expect(answer.body.code).toMatch(/^(VALIDATION_ERROR|FORBIDDEN)$/)
    expect(typeof answer.body.error).toBe('string')
  }, 30_000)

  it('a request line Node cannot parse gets 400 with {error, code}', async () => {
    const answer = await sendRaw('GET /api/health HTTP/1.1 extra\r\nHost: 127.0.0.1\r\n\r\n')
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR' })
  }, 30_000)
})

describe('a body that trickles in', () => {
  it('is cut off at SHEAF_REQUEST_TIMEOUT_MS with 408 and {error, code}, though bytes keep coming', async () => {
    const t = await startTestServer({ env: { SHEAF_BODY_TIMEOUT_MS: '5000', SHEAF_HEADERS_TIMEOUT_MS: '1000', SHEAF_REQUEST_TIMEOUT_MS: '1500' } })
    try {
      const s = await openSocket(t.url)
      s.write('POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{')
      const drip = setInterval(() => s.write(' '), 200)
      const answer = parseRaw(await s.response())
      clearInterval(drip)
      expect(answer.status).toBe(408)
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR' })
    } finally {
      await t.close()
    }
  }, 30_000)
})

describe('time-out configuration', () => {
  it('reads SHEAF_*_TIMEOUT_MS, with defaults in seconds for a home server', () => {
    expect(resolveConfig({ dataDir: '/tmp/x' }, {}).connections).toEqual({ headersTimeoutMs: 10_000, bodyTimeoutMs: 15_000, requestTimeoutMs: 600_000 })
    expect(resolveConfig({ dataDir: '/tmp/x' }, { SHEAF_BODY_TIMEOUT_MS: '2500', SHEAF_REQUEST_TIMEOUT_MS: '0' }).connections)
      .toMatchObject({ bodyTimeoutMs: 2500, requestTimeoutMs: 0 })
    expect(() => resolveConfig({ dataDir: '/tmp/x' }, { SHEAF_BODY_TIMEOUT_MS: '15s' })).toThrow(/SHEAF_BODY_TIMEOUT_MS must be a whole number of milliseconds/)
    expect(() => resolveConfig({ dataDir: '/tmp/x' }, { SHEAF_HEADERS_TIMEOUT_MS: '0' })).toThrow(/SHEAF_HEADERS_TIMEOUT_MS/)
  })
})
