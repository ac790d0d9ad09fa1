import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/fixtures.ts'
import { cliEnv } from './run-cli.ts'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** The environment of a running process, from /proc (Linux: the only place glibc's setting applies). */
const environOf = (pid: number): Map<string, string> =>
  new Map(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]))

describe.runIf(process.platform === 'linux')('bin/sheaf.cjs serve', () => {
  it('starts the server with two malloc arenas unless the user chose a number', async () => {
    for (const [given, expected] of [[undefined, '2'], ['4', '4']] as const) {
      const dir = mkdtempSync(join(tmpdir(), 'sheaf-server-env-'))
      dirs.push(dir)
      const env = cliEnv(given ? { MALLOC_ARENA_MAX: given } : {})
      if (!given) delete env.MALLOC_ARENA_MAX
      const wrapper = spawn(process.execPath, [join(REPO_ROOT, 'bin/sheaf.cjs'), '--data-dir', dir, 'serve', '--host', '127.0.0.1', '--port', '0', '--no-ui'], { env, stdio: ['ignore', 'pipe', 'ignore'] })
      await new Promise<void>((resolve, reject) => {
        let out = ''
        wrapper.stdout.on('data', (d: Buffer) => (out += d.toString()).includes('listening on') && resolve())
        wrapper.once('exit', (code) => reject(new Error(`sheaf serve exited (${code})`)))
      })
      const [server] = readFileSync(`/proc/${wrapper.pid}/task/${wrapper.pid}/children`, 'utf8').trim().split(/\s+/).map(Number)
      expect(environOf(server).get('MALLOC_ARENA_MAX')).toBe(expected)
      process.kill(server, 'SIGTERM')
      await new Promise((r) => wrapper.once('exit', r))
    }
  }, 60_000)
})
