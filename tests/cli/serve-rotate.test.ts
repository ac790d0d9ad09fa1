import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createFileStore } from '../../src-main/secrets/index.ts'
import { Client, PASSWORD, signedIn } from '../support/client.ts'
import { REPO_ROOT } from '../support/fixtures.ts'
import { startTestServer } from '../support/server.ts'
import { cliEnv, runCli } from './run-cli.ts'

vi.setConfig({ testTimeout: 120_000 })

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sheaf-serve-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A fresh clone: the repository's files (tracked and new, not ignored ones such as out/), node_modules linked. */
function freshClone(): string {
  const clone = mkdtempSync(join(tmpdir(), 'sheaf-clone-'))
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO_ROOT })
    .toString().split('\0').filter((f) => f && existsSync(join(REPO_ROOT, f)))
  for (const f of files) {
    mkdirSync(dirname(join(clone, f)), { recursive: true })
    copyFileSync(join(REPO_ROOT, f), join(clone, f))
  }
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(clone, 'node_modules'))
  return clone
}

describe('the README\'s headless command on a fresh clone: npm run -s serve -- --port 0 --data-dir D', () => {
  it('builds the missing UI, prints exactly one `listening on http://127.0.0.1:PORT` line on stdout and serves the UI there', async () => {
    const clone = freshClone()
    expect(existsSync(join(clone, 'out'))).toBe(false)
    const child = spawn('npm', ['run', '-s', 'serve', '--', '--port', '0', '--data-dir', dir], {
      cwd: clone, env: cliEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          stdout += d.toString()
          const m = /^listening on (http:\/\/127\.0\.0\.1:(\d+))$/m.exec(stdout)
          if (m) resolve(m[1])
        })
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)))
      })
      const res = await fetch(`${url}/api/health`)
      expect(await res.json()).toEqual({ ok: true })
      const page = await fetch(`${url}/`)
      expect(page.status).toBe(200)
      expect(page.headers.get('content-type')).toMatch(/text\/html/)
      expect(await page.text()).toContain('<div id="root">')
      const setup = await new Client(url).get('/api/auth/setup')
      expect(setup.body).toEqual({ needsSetup: true, local: true })
      await new Promise((r) => setTimeout(r, 300)) // anything else the server might print
      expect(stdout.split('\n').filter((l) => l !== '')).toEqual([expect.stringMatching(/^listening on http:\/\/127\.0\.0\.1:\d+$/)])
      expect(stderr).toContain('the UI is not built yet; building it now')
      expect(stderr).toContain('no users yet')
      expect(existsSync(join(clone, 'out', 'renderer', 'index.html'))).toBe(true)
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM')
      await new Promise((r) => setTimeout(r, 200))
      rmSync(clone, { recursive: true, force: true })
    }
  })
})

describe('sheaf secret rotate', () => {
  it('ends every session of a server running on the same data dir', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-rotate-'))
    const t = await startTestServer({ dataDir, secrets: createFileStore({ file: join(dataDir, 'secrets.json') }) })
    try {
      const c = await signedIn(t, 'admin', 'keeper@example.com')
      expect((await c.get('/api/auth/me')).status).toBe(200)
      const r = await runCli(['--data-dir', dataDir, 'secret', 'rotate'])
      expect(r).toMatchObject({ code: 0, stdout: 'signing key rotated; every session has ended\n' })
      const after = await c.get('/api/auth/me')
      expect(after.status).toBe(401)
      expect(after.body.code).toBe('UNAUTHORIZED')
      const again = new Client(t.url)
      expect((await again.post('/api/auth/login', { email: 'keeper@example.com', password: PASSWORD })).status).toBe(200)
      expect((await again.get('/api/auth/me')).status).toBe(200)
    } finally {
      await t.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
