import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { electronBinary } from '../../scripts/electron-runtime.ts'
import { describeIf } from '../support/skip.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const tmp = mkdtempSync(join(tmpdir(), 'sheaf-start-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('finding the Electron runtime without downloading it', () => {
  it('is null when the package has no downloaded binary, the path when it has', () => {
    const root = join(tmp, 'fake')
    mkdirSync(join(root, 'node_modules', 'electron', 'dist'), { recursive: true })
    expect(electronBinary(root, {})).toBeNull()
    writeFileSync(join(root, 'node_modules', 'electron', 'path.txt'), 'electron')
    expect(electronBinary(root, {})).toBeNull()
    writeFileSync(join(root, 'node_modules', 'electron', 'dist', 'electron'), '')
    expect(electronBinary(root, {})).toBe(join(root, 'node_modules', 'electron', 'dist', 'electron'))
    expect(electronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: join(tmp, 'nowhere') })).toBeNull()
  })
})

describeIf(electronBinary(ROOT) === null, "Electron's runtime is installed here, so npm start opens the desktop window")('npm start without the Electron runtime', () => {
  it('says so in one line and serves the same app in browser mode', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.ts')], {
      cwd: ROOT,
      env: { ...process.env, SHEAF_DATA_DIR: join(tmp, 'data'), SHEAF_PORT: '0', SHEAF_SECRET_STORE: 'file' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
        if (m) resolve(m[1])
      })
      child.once('exit', (code) => reject(new Error(`start exited ${code}: ${out}`)))
    })
    const lines = out.trim().split('\n')
    expect(lines[0]).toMatch(/^Electron's runtime is not installed on this machine, so Sheaf runs in browser mode/)
    expect(lines[1]).toBe(`listening on ${url}`)
    expect((await fetch(`${url}/api/health`)).status).toBe(200)
    const page = await fetch(`${url}/`)
    expect(page.status).toBe(200)
    expect(await page.text()).toMatch(/<div id="root">|<html/)
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  }, 120_000)
})
