/**
 * End-to-end journeys in Debian's Chromium against the real server serving the built UI.
 * Run: node_modules/.bin/node tests/e2e/run.ts [NAME...]   (journeys whose name contains any NAME, after the
 * first three; writes test-results/e2e.json and screenshots)
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { createApp, createLogger, listen, resolveConfig } from '../../src-main/app/index.ts'
import { JOURNEYS, type Ctx } from './journeys.ts'
import { a11yViolations, RESULTS, ROOT, SHOTS, Skip, unexpectedNoise, type Expected } from './support.ts'

const OUT = join(ROOT, 'out', 'renderer')

function newest(dir: string): number {
  let t = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs)
  }
  return t
}

function buildIfStale(): void {
  const index = join(OUT, 'index.html')
  const src = Math.max(newest(join(ROOT, 'src-renderer')), newest(join(ROOT, 'src-shared')), statSync(join(ROOT, 'vite.web.config.ts')).mtimeMs)
  if (existsSync(index) && statSync(index).mtimeMs >= src) return
  process.stdout.write('building the UI (out/renderer is stale)…\n')
  execFileSync(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--config', 'vite.web.config.ts', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' })
}

/** A journey fails on any console error or refused request it did not cause on purpose (Journey.expected). */
async function expectQuiet(expected: Expected[]): Promise<void> {
  await new Promise((r) => setTimeout(r, 250)) // the journey's last responses land in its own record
  const bad = unexpectedNoise(expected)
  if (bad.length > 0) throw new Error(`unexpected errors in the browser:\n${bad.map((l) => `  ${l}`).join('\n')}`)
}

interface Outcome { name: string; status: 'passed' | 'failed' | 'skipped'; ms: number; error?: string }

async function main(): Promise<number> {
  const only = process.argv.slice(2)
  process.chdir(ROOT)
  buildIfStale()
  rmSync(SHOTS, { recursive: true, force: true })
  mkdirSync(SHOTS, { recursive: true })
  const dataDir = mkdtempSync(join(tmpdir(), 'sheaf-e2e-'))
  const config = resolveConfig({ dataDir, host: '127.0.0.1', port: 0 }, {
    SHEAF_SECRET_STORE: 'file',
    SHEAF_RATE_LIMIT_API: '100000/1m',
    SHEAF_RATE_LIMIT_LOGIN: '1000/1m',
    SHEAF_RATE_LIMIT_REGISTER: '1000/1m',
    SHEAF_UI_DIR: OUT,
    // No claude command on this run, whatever the machine has: the settings journey checks what that reads like.
    SHEAF_CLAUDE_PATH: join(dataDir, 'no-claude-here'),
  })
  const sheaf = await createApp(config, { log: createLogger({ level: 'error' }), bcryptCost: 4 })
  const server = await listen(sheaf, '127.0.0.1', 0)
  const browser: Browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  })
  const ctx: Ctx = { url: server.url, browser, sheaf, state: {} }
  const results: Outcome[] = []
  const started = Date.now()
  try {
    for (const j of JOURNEYS) {
      if (only.length > 0 && !only.some((o) => j.name.includes(o)) && JOURNEYS.indexOf(j) > 2) continue
      const t0 = Date.now()
      try {
        await j.run(ctx)
        await expectQuiet(j.expected ?? [])
        results.push({ name: j.name, status: 'passed', ms: Date.now() - t0 })
        process.stdout.write(`  ok    ${j.name} (${Date.now() - t0} ms)\n`)
      } catch (e) {
        if (e instanceof Skip) {
          results.push({ name: j.name, status: 'skipped', ms: Date.now() - t0, error: e.message })
          process.stdout.write(`  skip  ${j.name}: ${e.message}\n`)
        } else {
          const noise = unexpectedNoise(j.expected ?? [])
          const msg = [(e as Error).stack ?? String(e), ...noise.map((l) => `  browser ${l}`)].join('\n')
          results.push({ name: j.name, status: 'failed', ms: Date.now() - t0, error: msg })
          process.stdout.write(`  FAIL  ${j.name}\n${msg.split('\n').slice(0, 20).map((l) => `        ${l}`).join('\n')}\n`)
          for (const p of ctx.pages ?? []) await p.screenshot({ path: join(SHOTS, `FAILED-${j.name.replace(/\W+/g, '-')}.png`) }).catch(() => undefined)
        }
      }
    }
  } finally {
    await browser.close().catch(() => undefined)
    await server.close()
    await sheaf.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  const passed = results.filter((r) => r.status === 'passed').length
  const failed = results.filter((r) => r.status === 'failed').length
  const skipped = results.filter((r) => r.status === 'skipped').length
  mkdirSync(RESULTS, { recursive: true })
  writeFileSync(join(RESULTS, 'e2e.json'), JSON.stringify({ passed, failed, skipped, ms: Date.now() - started, tests: results, a11y: a11yViolations }, null, 2))
  process.stdout.write(`\ne2e: ${passed} passed, ${failed} failed, ${skipped} skipped in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in test-results/screenshots\n`)
  return failed > 0 ? 1 : 0
}

main().then((code) => process.exit(code), (e) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`)
  process.exit(1)
})
