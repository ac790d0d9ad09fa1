import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkProviderBaseUrl, type ResolveHost } from '../../src-main/settings/index.ts'
import { signedIn, type Client } from '../support/client.ts'
import { startTestServer, type TestServer } from '../support/server.ts'

// Issue 14, finding 5: an AI provider base URL may be a LAN or loopback address (Ollama) but never
// a link-local one (169.254.169.254, the cloud metadata service). Names go through an injected
// resolver; nothing here resolves a real name or connects anywhere.

const resolver = (table: Record<string, string[]>): ResolveHost => async (host) => {
  if (!(host in table)) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
  return table[host]
}
const dns = resolver({
  'metadata.google.internal': ['169.254.169.254'],
  'sneaky.example': ['93.184.216.34', 'fe80::1'],
  'ollama.lan': ['192.168.1.20'],
  'api.example': ['93.184.216.34', '2606:4700::6810:84e5'],
})

async function verdict(url: string): Promise<string> {
  try {
    await checkProviderBaseUrl(url, dns)
    return 'ok'
  } catch (e) {
    return (e as { code: string }).code
  }
}

describe('checkProviderBaseUrl', () => {
  it.each([
    'http://169.254.169.254/v1', 'http://[fe80::1]:11434/v1', 'http://[64:ff9b::a9fe:a9fe]/', 'http://[::ffff:169.254.169.254]/', 'http://[2002:a9fe:a9fe::1]/',
    'http://metadata.google.internal/computeMetadata/v1', 'https://sneaky.example/v1',
  ])('refuses %s', async (url) => {
    expect(await verdict(url)).toBe('VALIDATION_ERROR')
  })
  it.each(['http://localhost:11434/v1', 'http://127.0.0.1:11434/v1', 'http://192.168.1.20:11434/v1', 'http://ollama.lan:11434/v1', 'https://api.example/v1', 'http://not-resolvable.lan/v1'])('accepts %s', async (url) => {
    expect(await verdict(url)).toBe('ok')
  })
})

describe('PUT /api/settings baseUrl', () => {
  let t: TestServer
  let admin: Client
  beforeAll(async () => {
    t = await startTestServer()
    admin = await signedIn(t, 'admin')
  })
  afterAll(async () => t?.close())

  it('refuses the metadata address with 400 naming baseUrl, and keeps the old value', async () => {
    const res = await admin.put('/api/settings', { target: 'openai', baseUrl: 'http://169.254.169.254/latest' })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'baseUrl' } })
    expect(res.body.error).toMatch(/link-local/)
    expect((await admin.get('/api/settings')).body.providers?.openai?.baseUrl ?? null).not.toBe('http://169.254.169.254/latest')
    const ok = await admin.put('/api/settings', { target: 'openai', baseUrl: 'http://127.0.0.1:11434/v1' })
    expect(ok.status).toBe(200)
  })
})
