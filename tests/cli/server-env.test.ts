import { spawn, type ChildProcess } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MALLOC_ENV } from '../../src-main/app/server-env.ts'
import { autostartEntry } from '../../src-main/desktop/login-item.ts'
import { REPO_ROOT } from '../support/fixtures.ts'
import { cliEnv } from './run-cli.ts'

const dirs: string[] = []
const started: ChildProcess[] = []
afterEach(() => {
  for (const c of started.splice(0)) c.kill('SIGKILL')
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'sheaf-server-env-'))
  dirs.push(dir)
  return dir
}

/** The environment of a running process, from /proc (Linux: the only place glibc's setting applies). */
const environOf = (pid: number): Map<string, string> =>
  new Map(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]))
const childrenOf = (pid: number): number[] =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
/** The process under `pid` (itself included) running the CLI's entry, the server. */
const serverUnder = (pid: number): number | undefined => {
  if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('src-main/cli/main.ts')) return pid
  for (const c of childrenOf(pid)) {
    const found = serverUnder(c)
    if (found !== undefined) return found
  }
  return undefined
}

/** The user's shell environment without the allocator's settings, or with their arena count. */
const envWith = (given: string | undefined): NodeJS.ProcessEnv => {
  const env = cliEnv(given ? { MALLOC_ARENA_MAX: given } : {})
  for (const k of Object.keys(MALLOC_ENV)) if (!(k === 'MALLOC_ARENA_MAX' && given)) delete env[k]
  return env
}
/** The allocator's settings in a process's environment. */
const mallocOf = (pid: number): Record<string, string | undefined> => Object.fromEntries(Object.keys(MALLOC_ENV).map((k) => [k, environOf(pid).get(k)]))

/** Runs `command` (its own process group) until it prints that it listens; returns the server's pid. */
async function serve(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(command, args, { env, cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'ignore'], detached: true })
  started.push(child)
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()).includes('listening on') && resolve())
    child.once('exit', (code) => reject(new Error(`${command} exited (${code})`)))
  })
  const server = serverUnder(child.pid!)
  if (server === undefined) throw new Error('no server process found')
  return server
}
const stopGroup = async (child: ChildProcess) => {
  const exited = new Promise((r) => child.once('exit', r))
  process.kill(-child.pid!, 'SIGTERM')
  await exited
}

/** An Exec line's arguments (desktop entry spec: spaces apart, double quotes with \" \` \$ \\ escapes). */
const execArgs = (entry: string): string[] => {
  const line = entry.split('\n').find((l) => l.startsWith('Exec='))!.slice('Exec='.length)
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]))
}

describe.runIf(process.platform === 'linux')("every way Sheaf starts on Linux gives it glibc's allocator settings", () => {
  it('bin/sheaf.cjs serve, unless the user chose a number of arenas', async () => {
    for (const [given, expected] of [[undefined, '2'], ['4', '4']] as const) {
      const server = await serve(process.execPath, [join(REPO_ROOT, 'bin/sheaf.cjs'), '--data-dir', tempDir(), 'serve', '--host', '127.0.0.1', '--port', '0', '--no-ui'], envWith(given))
      expect(mallocOf(server)).toEqual({ ...MALLOC_ENV, MALLOC_ARENA_MAX: expected })
      await stopGroup(started.pop()!)
    }
  }, 60_000)

  it('`npm run serve` (its script, run by a shell as npm runs it)', async () => {
    const script = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.serve
    const env = { ...envWith(undefined), SHEAF_DATA_DIR: tempDir(), PATH: `${join(REPO_ROOT, 'node_modules/.bin')}:${process.env.PATH}` }
    const server = await serve('sh', ['-c', `${script} --host 127.0.0.1 --port 0 --no-ui`], env)
    expect(mallocOf(server)).toEqual(MALLOC_ENV)
    await stopGroup(started.pop()!)
  }, 60_000)

  it('the desktop app opened at login (its XDG autostart entry, run as the session runs it)', async () => {
    // The program the entry starts: a stand-in for the packaged app that stays up, in a folder with a space.
    const dir = join(tempDir(), 'Sheaf App')
    mkdirSync(dir)
    const app = join(dir, 'sheaf')
    writeFileSync(app, '#!/bin/sh\nexec sleep 30\n')
    chmodSync(app, 0o755)
    const [command, ...args] = execArgs(autostartEntry(app))
    expect(args.at(-1)).toBe('--hidden')
    const child = spawn(command, args, { env: envWith(undefined), stdio: 'ignore' })
    started.push(child)
    // env(1) and the script each exec in place: the pid is the app's once it runs sleep.
    const deadline = Date.now() + 10_000
    while (!readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').startsWith('sleep') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
    expect(readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0')[0]).toBe('sleep')
    expect(mallocOf(child.pid!)).toEqual(MALLOC_ENV)
  }, 30_000)
})
