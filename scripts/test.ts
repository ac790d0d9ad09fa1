// `npm test`: everything CI runs, in order, ending with one line "N passed, N failed, N skipped".
// typecheck (tsc -b) and lint (eslint --max-warnings 0) count as one check each; vitest and the
// end-to-end runner (tests/e2e/run.ts, when present) count their tests. Every step runs even when an
// earlier one fails, so one run shows everything that is wrong. Every skip is listed with its reason
// (tests/support/skip.ts puts it in the title); a skip that gives none counts as a failure.
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

const USAGE = `Usage: npm test [-- FILE... | -- --e2e [NAME] | -- --help]

  npm test                                     everything CI runs: typecheck, lint, unit and API tests, end-to-end
  npm test -- tests/search/search-api.test.ts  only these test files (vitest)
  npm test -- --e2e search                     only the end-to-end journeys whose name contains "search"
                                               (the first three, which set up the library, always run)

Ends with one line: N passed, N failed, N skipped. Results: test-results/vitest.json, test-results/e2e.json.
`

interface Tally {
  passed: number
  failed: number
  skipped: number
}
/** Skips with their reasons, printed before the summary. */
const skips: string[] = []
const steps: { name: string; tally: Tally }[] = []

/**
 * Background workers keep normal priority in tests (unless the caller sets it): the machines tests run
 * on are shared and loaded, and at nice 19 a pipeline test's workers wait for every other process's
 * threads and time out. tests/background/thread-priority.test.ts sets the priority it checks itself.
 */
const TEST_ENV = { SHEAF_WORKER_NICE: '0', ...process.env }

function run(name: string, cmd: string, args: string[]): number {
  process.stdout.write(`\n=== ${name}: ${[cmd.replace(ROOT + '/', ''), ...args].join(' ')}\n`)
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: TEST_ENV })
  if (r.error) process.stderr.write(`${name}: ${r.error.message}\n`)
  return r.status ?? 1
}

function check(name: string, cmd: string, args: string[]): void {
  const ok = run(name, cmd, args) === 0
  steps.push({ name, tally: { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 } })
}

interface VitestReport {
  numPassedTests: number
  numFailedTests: number
  testResults: { name: string; status: string; message?: string; assertionResults: { status: string; title: string; ancestorTitles: string[] }[] }[]
}

const SKIP_MARK = /\[skipped: ([^\]]+)\]/

function vitest(files: string[]): void {
  rmSync(VITEST_JSON, { force: true })
  const code = run('unit and API tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`, ...files])
  if (!existsSync(VITEST_JSON)) {
    steps.push({ name: 'unit and API tests', tally: { passed: 0, failed: 1, skipped: 0 } })
    return
  }
  const report = JSON.parse(readFileSync(VITEST_JSON, 'utf8')) as VitestReport
  // A file that fails to load has no test results of its own; count it as one failure.
  const brokenFiles = report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length
  let failed = report.numFailedTests + brokenFiles
  // Skipped, pending and todo tests: each must say why (tests/support/skip.ts); grouped by reason.
  const byReason = new Map<string, Set<string>>()
  let skipped = 0
  for (const f of report.testResults) {
    for (const a of f.assertionResults) {
      if (a.status === 'passed' || a.status === 'failed') continue
      skipped++
      const reason = SKIP_MARK.exec([...a.ancestorTitles, a.title].join(' '))?.[1]
      const file = f.name.replace(ROOT + '/', '')
      if (!reason) {
        failed++
        skips.push(`  ${file} > ${[...a.ancestorTitles, a.title].join(' > ')}: ${a.status} without a reason (use describeIf/itIf from tests/support/skip.ts)`)
        continue
      }
      let set = byReason.get(reason)
      if (!set) byReason.set(reason, (set = new Set()))
      set.add(file)
    }
  }
  for (const [reason, set] of byReason) skips.push(`  ${reason}: ${[...set].join(', ')}`)
  steps.push({ name: 'unit and API tests', tally: { passed: report.numPassedTests, failed: failed || (code === 0 ? 0 : 1), skipped } })
}

function e2e(filter: string | undefined): void {
  const runner = join(ROOT, 'tests', 'e2e', 'run.ts')
  if (!existsSync(runner)) return
  rmSync(E2E_JSON, { force: true })
  const code = run('end-to-end tests', process.execPath, [runner, ...(filter ? [filter] : [])])
  let tally: Tally = { passed: 0, failed: 1, skipped: 0 }
  if (existsSync(E2E_JSON)) {
    const r = JSON.parse(readFileSync(E2E_JSON, 'utf8')) as Partial<Tally> & { tests?: { name: string; status: string; error?: string }[] }
    tally = { passed: Number(r.passed ?? 0), failed: Number(r.failed ?? 0), skipped: Number(r.skipped ?? 0) }
    if (code !== 0 && tally.failed === 0) tally.failed = 1
    for (const t of r.tests ?? []) if (t.status === 'skipped') skips.push(`  ${t.error ?? 'no reason given'}: journey "${t.name}"`)
  }
  steps.push({ name: 'end-to-end tests', tally })
}

const args = process.argv.slice(2)
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(USAGE)
  process.exit(0)
}
const e2eAt = args.indexOf('--e2e')
const files = args.filter((a, i) => !a.startsWith('-') && (e2eAt < 0 || i !== e2eAt + 1))
const unknown = args.filter((a) => a.startsWith('-') && a !== '--e2e')
if (unknown.length > 0) {
  process.stderr.write(`npm test: unknown option ${unknown[0]}\n\n${USAGE}`)
  process.exit(2)
}

mkdirSync(RESULTS, { recursive: true })
if (e2eAt >= 0) e2e(args[e2eAt + 1])
else if (files.length > 0) vitest(files)
else {
  check('typecheck', bin('tsc'), ['-b'])
  check('lint', bin('eslint'), ['--max-warnings', '0', '.'])
  vitest([])
  e2e(undefined)
}

process.stdout.write('\n')
if (skips.length > 0) process.stdout.write(`skipped, and why:\n${skips.join('\n')}\n\n`)
for (const s of steps) process.stdout.write(`${s.name.padEnd(20)} ${s.tally.passed} passed, ${s.tally.failed} failed, ${s.tally.skipped} skipped\n`)
const passed = steps.reduce((n, s) => n + s.tally.passed, 0)
const failed = steps.reduce((n, s) => n + s.tally.failed, 0)
const skipped = steps.reduce((n, s) => n + s.tally.skipped, 0)
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`)
process.exitCode = failed > 0 ? 1 : 0
