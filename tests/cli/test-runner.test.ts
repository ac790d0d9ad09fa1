import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/fixtures.ts'
import { NODE22 } from './run-cli.ts'

const runner = (...args: string[]) => spawnSync(NODE22, [join(REPO_ROOT, 'scripts', 'test.ts'), ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 })

describe('npm test (scripts/test.ts) options', () => {
  it('--help prints the usage and runs nothing', () => {
    const r = runner('--help')
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^Usage: npm test /)
    expect(r.stdout).toContain('npm test -- tests/search/search-api.test.ts')
    expect(r.stdout).not.toContain('=== typecheck')
  })

  it('refuses an unknown option with the usage (exit 2) instead of starting the suite', () => {
    const r = runner('--verbose')
    expect(r.status).toBe(2)
    expect(r.stderr).toMatch(/^npm test: unknown option --verbose\n\nUsage: /)
    expect(r.stdout).toBe('')
  })
})
