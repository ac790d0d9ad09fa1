// `npm test`: everything CI runs, in order, ending with one line "N passed, N failed".
// typecheck (tsc -b) and lint (eslint --max-warnings 0) count as one check each; vitest and the
// end-to-end runner (tests/e2e/run.ts, when present) count their tests. Every step runs even when an
// earlier one fails, so one run shows everything that is wrong.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const RESULTS = join(ROOT, 'test-results')
const VITEST_JSON = join(RESULTS, 'vitest.json')
/** The e2e runner writes {passed, failed} here (agreed with tests/e2e/run.ts). */
const E2E_JSON = join(RESULTS, 'e2e.json')
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name)

interface Tally {
  passed: number
  failed: number
}
const steps: { name: string; tally: Tally }[] = []

function run(name: string, cmd: string, args: string[]): number {
  process.stdout.write(`\n=== ${name}: ${[cmd.replace(ROOT + '/', ''), ...args].join(' ')}\n`)
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: process.env })
  if (r.error) process.stderr.write(`${name}: ${r.error.message}\n`)
  return r.status ?? 1
}

function check(name: string, cmd: string, args: string[]): void {
  const ok = run(name, cmd, args) === 0
  steps.push({ name, tally: { passed: ok ? 1 : 0, failed: ok ? 0 : 1 } })
}

interface VitestReport {
  numPassedTests: number
  numFailedTests: number
  testResults: { name: string; status: string; message?: string; assertionResults: unknown[] }[]
}

function vitest(): void {
  rmSync(VITEST_JSON, { force: true })
  const code = run('unit and API tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`])
  if (!existsSync(VITEST_JSON)) {
    steps.push({ name: 'unit and API tests', tally: { passed: 0, failed: 1 } })
    return
  }
  const report = JSON.parse(readFileSync(VITEST_JSON, 'utf8')) as VitestReport
  // A file that fails to load has no test results of its own; count it as one failure.
  const brokenFiles = report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length
  const failed = report.numFailedTests + brokenFiles
  steps.push({ name: 'unit and API tests', tally: { passed: report.numPassedTests, failed: failed || (code === 0 ? 0 : 1) } })
}

function e2e(): void {
  const runner = join(ROOT, 'tests', 'e2e', 'run.ts')
  if (!existsSync(runner)) return
  rmSync(E2E_JSON, { force: true })
  const code = run('end-to-end tests', process.execPath, [runner])
  let tally: Tally = { passed: 0, failed: 1 }
  if (existsSync(E2E_JSON)) {
    const r = JSON.parse(readFileSync(E2E_JSON, 'utf8')) as Partial<Tally>
    tally = { passed: Number(r.passed ?? 0), failed: Number(r.failed ?? 0) }
    if (code !== 0 && tally.failed === 0) tally.failed = 1
  }
  steps.push({ name: 'end-to-end tests', tally })
}

mkdirSync(RESULTS, { recursive: true })
check('typecheck', bin('tsc'), ['-b'])
check('lint', bin('eslint'), ['--max-warnings', '0', '.'])
vitest()
e2e()

process.stdout.write('\n')
for (const s of steps) process.stdout.write(`${s.name.padEnd(20)} ${s.tally.passed} passed, ${s.tally.failed} failed\n`)
const passed = steps.reduce((n, s) => n + s.tally.passed, 0)
const failed = steps.reduce((n, s) => n + s.tally.failed, 0)
process.stdout.write(`${passed} passed, ${failed} failed\n`)
process.exitCode = failed > 0 ? 1 : 0
