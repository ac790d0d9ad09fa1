import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { buildProgram } from '../../src-main/cli/main.ts'

// `--lan` itself is not run here: it binds the machine's real network addresses, which tests never do.
// What it starts (sheaf.lan.start) is tested end to end on a loopback address in lan-sharing.test.ts.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-cli-lan-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('sheaf serve --lan', () => {
  it('is an option of serve', () => {
    const serve = buildProgram().commands.find((c) => c.name() === 'serve')!
    const lan = serve.options.find((o) => o.long === '--lan')
    expect(lan?.description).toMatch(/home network over HTTPS/)
  })

  it('without the flag (and sharing never turned on) nothing is shared', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'src-main/cli/main.ts'), '--data-dir', dataDir, 'serve', '--port', '0', '--no-ui'], {
      env: { ...process.env, SHEAF_SECRET_STORE: 'file' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d
        if (/listening on/.test(out)) setTimeout(resolve, 300)
      })
      child.once('exit', (code) => reject(new Error(`exited ${code}`)))
    })
    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGTERM')
    await exited
    expect(out).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/)
  })
})
