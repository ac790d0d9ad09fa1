import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.ts'

describe('the built UI', () => {
  let t: TestServer
  const uiDir = mkdtempSync(join(tmpdir(), 'sheaf-ui-'))
  beforeAll(async () => {
    mkdirSync(join(uiDir, 'assets'))
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Sheaf</title><div id="root"></div>')
    writeFileSync(join(uiDir, 'assets', 'app-1234.js'), 'console.log(1)')
    t = await startTestServer({ config: { uiDir } })
  })
  afterAll(async () => {
    await t.close()
    rmSync(uiDir, { recursive: true, force: true })
  })

  it('serves a file it has, cached for good', async () => {
    const res = await fetch(`${t.url}/assets/app-1234.js`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/javascript/)
    expect(res.headers.get('cache-control')).toContain('immutable')
  })

  it('answers a page of the app with index.html', async () => {
    const res = await fetch(`${t.url}/library?sort=imported`)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('<div id="root">')
  })

  it('answers a missing asset (an older build\'s script) with a 404, never the page in its place', async () => {
    const res = await fetch(`${t.url}/assets/app-old.js`)
    expect(res.status).toBe(404)
    expect(res.headers.get('cache-control') ?? '').not.toContain('immutable')
    expect(await res.json()).toMatchObject({ code: 'NOT_FOUND' })
  })
})
