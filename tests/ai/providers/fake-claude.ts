import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

/**
 * A stand-in `claude` executable (plain JS for whatever `node` is on PATH) placed first on PATH.
 * It answers `--version`, and in `-p --output-format json` mode reads the prompt from stdin and
 * prints the CLI's result object. Behaviour comes from <dir>/mode; every call is logged to <dir>/calls.jsonl.
 */
const SCRIPT = String.raw`#!/usr/bin/env node
const fs = require('fs'), path = require('path')
const dir = __dirname
const args = process.argv.slice(2)
const mode = fs.existsSync(path.join(dir, 'mode')) ? fs.readFileSync(path.join(dir, 'mode'), 'utf8').trim() : 'ok'
if (args[0] === '--version') { console.log('2.0.0 (Claude Code)'); process.exit(0) }
let input = ''
process.stdin.on('data', (d) => (input += d))
process.stdin.on('end', () => {
  const countFile = path.join(dir, 'count')
  const n = (fs.existsSync(countFile) ? Number(fs.readFileSync(countFile, 'utf8')) : 0) + 1
  fs.writeFileSync(countFile, String(n))
  fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify({ args, input }) + '\n')
  const out = (o, code = 0) => { process.stdout.write(JSON.stringify(o)); process.exit(code) }
  const result = (text) => out({ type: 'result', subtype: 'success', is_error: false, result: text, total_cost_usd: 0.0123,
    usage: { input_tokens: 150, output_tokens: 70 }, modelUsage: { 'claude-sonnet-4-5': {} }, session_id: 's1' })
  if (mode === 'unauth') return out({ type: 'result', subtype: 'success', is_error: true, result: 'Invalid API key · Please run /login' }, 1)
  if (mode === 'hang') return setTimeout(() => {}, 1e9)
  if (mode === 'rate-limit-once' && n === 1) return out({ type: 'result', is_error: true, result: 'API Error: 429 rate_limit_error' }, 1)
  if (mode === 'server-error-once' && n === 1) return out({ type: 'result', is_error: true, result: 'API Error: 500 overloaded' }, 1)
  const ca = input.lastIndexOf('<candidates>'), cb = input.lastIndexOf('</candidates>')
  if (ca >= 0 && cb > ca) {
    // A search rerank: the candidates judged in reverse order, with an id that was never offered.
    if (mode === 'malformed') return result('I think the first one, probably.')
    const cands = JSON.parse(input.slice(ca + 12, cb)).reverse()
    return result(JSON.stringify({ results: [{ id: 424242, score: 1, reason: 'invented' },
      ...cands.map((c, i) => ({ id: c.id, score: Math.max(0, 0.9 - i * 0.1), reason: 'CLI judged **' + c.author + '**\nsecond line' }))] }))
  }
  const a = input.lastIndexOf('<posts>'), b = input.lastIndexOf('</posts>')
  if (a < 0 || b < a) return result('OK')
  const posts = JSON.parse(input.slice(a + 7, b))
  const reply = JSON.stringify({ posts: posts.map((p) => ({ id: p.id, summary: 'CLI summary of post ' + p.id, tags: ['cli tag'],
    sentiment: 'neutral', action: 'read_later', confidence: 0.7, categories: [{ slug: 'programming', confidence: 0.6 }] })) })
  if (mode === 'malformed') return result('Sure! Here you go: {"posts": [oops')
  if (mode === 'truncated-once' && posts.length > 1 && !fs.existsSync(path.join(dir, 'truncated'))) {
    fs.writeFileSync(path.join(dir, 'truncated'), '1')
    return result(reply.slice(0, Math.floor(reply.length / 2)))
  }
  result(reply)
})
`

export interface FakeClaude {
  dir: string
  setMode(mode: string): void
  calls(): Array<{ args: string[]; input: string }>
  restore(): void
}

export function installFakeClaude(): FakeClaude {
  const dir = mkdtempSync(join(tmpdir(), 'sheaf-fake-claude-'))
  const file = join(dir, 'claude')
  writeFileSync(file, SCRIPT)
  chmodSync(file, 0o755)
  // The system node runs the stand-in; our pinned node_modules/.bin stays reachable after it.
  const before = process.env.PATH
  process.env.PATH = `${dir}${delimiter}${before}`
  return {
    dir,
    setMode(mode) {
      writeFileSync(join(dir, 'mode'), mode)
      for (const f of ['count', 'truncated']) rmSync(join(dir, f), { force: true })
    },
    calls: () => (existsSync(join(dir, 'calls.jsonl')) ? readFileSync(join(dir, 'calls.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []),
    restore() {
      process.env.PATH = before
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
