import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from '../support/fixtures.ts'

export const NODE22 = join(REPO_ROOT, 'node_modules/.bin/node')
export const CLI_MAIN = join(REPO_ROOT, 'src-main/cli/main.ts')

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/** The environment a user's shell would give, minus any SHEAF_* of the machine running the tests. */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SHEAF_')) env[k] = v
  return { ...env, SHEAF_SECRET_STORE: 'file', ...extra }
}

/** Runs `sheaf ARGS` as a child process on the pinned Node, with optional stdin. */
export function runCli(args: string[], opts: { stdin?: string; env?: Record<string, string>; command?: string[] } = {}): Promise<CliResult> {
  const [cmd, ...pre] = opts.command ?? [NODE22, CLI_MAIN]
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, [...pre, ...args], { cwd: REPO_ROOT, env: cliEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin)
    else child.stdin.end()
  })
}
