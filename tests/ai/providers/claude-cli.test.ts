import { describe, expect, it } from 'vitest'
import { claudeCliStatus, createClaudeCliProvider } from '../../../src-main/ai/index.ts'
import { installFakeClaude } from './fake-claude.ts'
import { runProviderContract, type Mode } from './provider.contract.ts'

runProviderContract('claude-cli', async () => {
  const fake = installFakeClaude()
  let from = 0
  return {
    provider: ({ delays, batchSize }) => createClaudeCliProvider({ batchSize, model: 'claude-sonnet-4-5', retry: { sleep: async (ms) => { delays.push(ms) } } }),
    setMode(m: Mode) {
      fake.setMode(m === 'bad-auth' ? 'unauth' : m)
      from = fake.calls().length
    },
    calls: () => fake.calls().length - from,
    prompts: () => fake.calls().map((c) => c.input),
    retryAfterMs: null,
    close: async () => fake.restore(),
  }
})

describe('claude CLI specifics', () => {
  it('passes the prompt on stdin, never in argv, in print mode with JSON output', async () => {
    const fake = installFakeClaude()
    try {
      fake.setMode('ok')
      const secret = 'a post with a distinctive phrase zebra-umbrella-42'
      const p = createClaudeCliProvider({ model: 'claude-sonnet-4-5' })
      const r = await p.analyze([{ id: 3, text: secret, authorHandle: 'a', urls: [], quotedText: null, entityNames: [], imageNotes: [], images: [] }], { categories: [] })
      expect(r.results[0].summary).toBe('CLI summary of post 3')
      expect(r.usage.costUsd).toBeCloseTo(0.0123)
      const call = fake.calls()[0]
      expect(call.args.slice(0, 3)).toEqual(['-p', '--output-format', 'json'])
      expect(call.args).toContain('claude-sonnet-4-5')
      expect(call.args.join(' ')).not.toContain('zebra-umbrella')
      expect(call.input).toContain('zebra-umbrella-42')
    } finally {
      fake.restore()
    }
  })

  it('reports installed and signed in, or installed but signed out', async () => {
    const fake = installFakeClaude()
    try {
      fake.setMode('ok')
      expect(await claudeCliStatus()).toMatchObject({ installed: true, authenticated: true, version: '2.0.0 (Claude Code)', model: 'claude-sonnet-4-5' })
      fake.setMode('unauth')
      expect(await claudeCliStatus()).toMatchObject({ installed: true, authenticated: false })
    } finally {
      fake.restore()
    }
    expect(await claudeCliStatus({ command: 'sheaf-no-such-claude' })).toEqual({ installed: false, version: null, authenticated: false, model: null })
  })
})
