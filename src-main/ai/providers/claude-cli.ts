import { spawn } from 'node:child_process'
import { z } from 'zod'
import type { AiProvider, Usage } from '../types.ts'
import { batchAnalyze, type Complete } from './batch-analyze.ts'
import { RERANK_RETRY, rerankVia } from './rerank-call.ts'
import { abortError, createLimiter, describeFailure, RemoteError, withRetry, type RetryOptions } from './remote-call.ts'

export interface ClaudeCliOptions {
  /** The executable; `claude` found on PATH by default. */
  command?: string
  model?: string | null
  batchSize?: number
  concurrency?: number
  timeoutMs?: number
  retry?: Omit<RetryOptions, 'signal' | 'timeoutMs'>
  env?: NodeJS.ProcessEnv
}

/** `claude -p --output-format json` prints one result object. */
const zCliResult = z.object({
  type: z.string().optional(),
  subtype: z.string().optional(),
  is_error: z.boolean().optional(),
  result: z.string().optional(),
  total_cost_usd: z.number().optional(),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).partial().optional(),
  modelUsage: z.record(z.string(), z.unknown()).optional(),
})

export interface RunResult { code: number | null; stdout: string; stderr: string }

/** Runs the CLI with `input` on stdin (never in argv: post text must not show in `ps`). */
export function runCli(command: string, args: string[], input: string, { signal, env }: { signal?: AbortSignal; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal))
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env, windowsHide: true })
    let stdout = ''
    let stderr = ''
    const onAbort = () => child.kill('SIGTERM')
    signal?.addEventListener('abort', onAbort, { once: true })
    child.stdout.setEncoding('utf8').on('data', (d: string) => { stdout += d })
    child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d.slice(0, 4000) })
    child.stdin.on('error', () => {})
    child.on('error', (e) => {
      signal?.removeEventListener('abort', onAbort)
      reject(e)
    })
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort)
      if (signal?.aborted) return reject(abortError(signal))
      resolve({ code, stdout, stderr })
    })
    child.stdin.end(input)
  })
}

const TRANSIENT = /\b(429|5\d\d|rate.?limit|overloaded|timed? ?out|ECONNRESET|network)\b/i

/** The Claude Code CLI in print mode, using the person's own OAuth session. */
export function createClaudeCliProvider(opts: ClaudeCliOptions = {}): AiProvider {
  const command = opts.command ?? 'claude'
  const model = opts.model || 'default'
  const limit = createLimiter(opts.concurrency ?? 1)
  const batchSize = opts.batchSize ?? 25
  const args = ['-p', '--output-format', 'json', ...(opts.model ? ['--model', opts.model] : [])]

  const ask = async (prompt: string, signal?: AbortSignal, retry = opts.retry, timeoutMs = opts.timeoutMs ?? 300_000): Promise<{ text: string; truncated: boolean; usage: Usage }> =>
    withRetry(async (s) => {
      let run: RunResult
      try {
        run = await runCli(command, args, prompt, { signal: s, env: opts.env })
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new RemoteError(`the claude CLI is not installed (no "${command}" on PATH)`)
        throw e
      }
      let parsed: z.infer<typeof zCliResult>
      try {
        parsed = zCliResult.parse(JSON.parse(run.stdout))
      } catch {
        const msg = (run.stderr || run.stdout).trim().slice(0, 300) || `exit code ${run.code}`
        throw new RemoteError(`the claude CLI failed: ${msg}`, { retryable: TRANSIENT.test(msg) })
      }
      if (parsed.is_error || run.code !== 0) {
        const msg = (parsed.result ?? run.stderr).slice(0, 300)
        throw new RemoteError(`the claude CLI reported an error: ${msg}`, { retryable: TRANSIENT.test(msg) })
      }
      const usage: Usage = {
        tokensIn: parsed.usage?.input_tokens ?? 0,
        tokensOut: parsed.usage?.output_tokens ?? 0,
        costUsd: parsed.total_cost_usd ?? 0,
      }
      return { text: parsed.result ?? '', truncated: false, usage }
    }, { ...retry, timeoutMs, signal })

  const complete: Complete = ({ system, user, signal }) => ask(`${system}\n\n${user}`, signal)

  return {
    name: 'claude-cli',
    model,
    method: 'claude-cli-oauth',
    batchSize,
    // Images cannot be passed through stdin in print mode; OCR and alt text still reach the model.
    vision: false,
    analyze: (posts, ctx) => batchAnalyze(posts, ctx, { complete, batchSize, limit }),
    rerank: (query, candidates, signal) =>
      rerankVia((system, user, _maxOut, s) => ask(`${system}\n\n${user}`, s, { ...opts.retry, attempts: RERANK_RETRY.attempts }, RERANK_RETRY.timeoutMs), query, candidates, signal),
    async test(signal) {
      try {
        await ask('Reply with the word OK.', signal)
      } catch (e) {
        throw describeFailure(e, 'The claude CLI')
      }
      return { method: 'claude-cli-oauth', model }
    },
  }
}

export interface ClaudeCliStatus {
  installed: boolean
  version: string | null
  authenticated: boolean
  model: string | null
}

/** `claude --version` (installed?) then a one-word print-mode call (signed in?). */
export async function claudeCliStatus({ command = 'claude', env, timeoutMs = 30_000 }: { command?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ClaudeCliStatus> {
  const none: ClaudeCliStatus = { installed: false, version: null, authenticated: false, model: null }
  let version: RunResult
  try {
    version = await runCli(command, ['--version'], '', { signal: AbortSignal.timeout(10_000), env })
  } catch {
    return none
  }
  if (version.code !== 0) return none
  const v = version.stdout.trim().split('\n')[0].slice(0, 100) || null
  try {
    const r = await runCli(command, ['-p', '--output-format', 'json'], 'Reply with the word OK.', { signal: AbortSignal.timeout(timeoutMs), env })
    const parsed = zCliResult.parse(JSON.parse(r.stdout))
    const ok = r.code === 0 && !parsed.is_error
    return { installed: true, version: v, authenticated: ok, model: Object.keys(parsed.modelUsage ?? {})[0] ?? null }
  } catch {
    return { installed: true, version: v, authenticated: false, model: null }
  }
}

