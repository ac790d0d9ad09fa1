import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const RESULTS = join(ROOT, 'test-results')
export const SHOTS = join(RESULTS, 'screenshots')
export const FIXTURES = join(ROOT, '..', 'shared', 'fixtures')
const AXE = join(ROOT, 'node_modules', 'axe-core', 'axe.min.js')

export class Skip extends Error {}
export const skip = (why: string): never => {
  throw new Skip(why)
}

export function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message)
}

export interface Violation { page: string; id: string; impact: string; help: string; nodes: string[] }
export const a11yViolations: Violation[] = []

/** axe-core on the current page; serious and critical violations are recorded and returned. */
export async function checkA11y(page: Page, name: string): Promise<Violation[]> {
  // addScriptTag inserts an inline <script>, which the served CSP (script-src 'self') rightly blocks; the
  // same source evaluated through the DevTools protocol is not subject to it, so the CSP stays on in tests.
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(readFileSync(AXE, 'utf8'))
  // Contrast is judged on the settled page: mid fade-in, text is still blended with its background.
  await page.evaluate(`Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
    .map((a) => a.finished.catch(() => {})))`)
  const raw = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] })
    .then(r => r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 160)) })))`)) as Omit<Violation, 'page'>[]
  const bad = raw.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ ...v, page: name }))
  a11yViolations.push(...bad)
  return bad
}

export async function expectNoA11yIssues(page: Page, name: string): Promise<void> {
  const bad = await checkA11y(page, name)
  assert(bad.length === 0, `accessibility (${name}): ${bad.map((v) => `${v.id} [${v.impact}] ${v.help} @ ${v.nodes.join(' | ')}`).join('; ')}`)
}

/** Screenshots in light and dark, and an axe check in each theme. */
export async function shootBoth(page: Page, name: string, opts: { a11y?: boolean; fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate(`(() => { localStorage.setItem('sheaf.theme', '${theme}'); document.documentElement.dataset.theme = '${theme}'; document.documentElement.style.colorScheme = '${theme}' })()`)
    await page.waitForTimeout(300)
    await page.screenshot({ path: join(SHOTS, `${name}-${theme}.png`), fullPage: opts.fullPage ?? false })
    if (opts.a11y !== false) await expectNoA11yIssues(page, `${name} (${theme})`)
  }
  await page.evaluate(`localStorage.setItem('sheaf.theme', 'light'); document.documentElement.dataset.theme = 'light'`)
}

/**
 * Drops real files onto the window the way a person does: a DataTransfer built in the page and
 * dragenter/dragover/drop dispatched on the body.
 */
export async function dropFiles(page: Page, paths: string[]): Promise<void> {
  const files = paths.map((p) => ({ name: basename(p), text: readFileSync(p, 'utf8'), type: p.endsWith('.csv') ? 'text/csv' : 'application/json' }))
  await page.evaluate(`((files) => {
    const dt = new DataTransfer()
    for (const f of files) dt.items.add(new File([f.text], f.name, { type: f.type }))
    const target = document.querySelector('main') || document.body
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }))
    }
  })(${JSON.stringify(files)})`)
}

export const fixture = (...parts: string[]) => {
  const p = join(FIXTURES, ...parts)
  return existsSync(p) ? p : null
}

/** Something a page reported that nobody asked for: a console error, an uncaught error, a refused or failed request. */
export interface Noise { kind: 'console' | 'page error' | 'response' | 'request failed'; text: string }

/** A deliberate error a journey causes (a wrong password, a file that is not an export), and why it is there. */
export interface Expected { match: RegExp; why: string }

const noise: Noise[] = []

/** Errors every journey may see, with why they are not the product's. */
const EVERYWHERE: Expected[] = [
  // The test machine has no network: media on X's CDN cannot resolve (Thumb then shows "Image not loaded").
  { match: /ERR_NAME_NOT_RESOLVED (GET|@) https:\/\/pbs\.twimg\.com\//, why: 'offline test machine' },
]

/**
 * Records every console error, uncaught error, 4xx/5xx response and failed request of `page`. Requests the
 * page itself abandons (net::ERR_ABORTED: a navigation or an AbortController) are not failures.
 */
export function watchPage(page: Page): void {
  const note = (kind: Noise['kind'], text: string) => noise.push({ kind, text })
  page.on('pageerror', (e) => note('page error', e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') note('console', `${m.text().slice(0, 300)} @ ${m.location().url}`)
  })
  page.on('response', (r) => {
    if (r.status() < 400) return
    const n: Noise = { kind: 'response', text: `${r.status()} ${r.request().method()} ${r.url()}` }
    noise.push(n)
    // The body says which request it was ("not valid JSON", "no such post"); it is added when it arrives.
    void r.text().then((b) => { n.text += ` ${b.slice(0, 200)}` }, () => undefined)
  })
  page.on('requestfailed', (r) => {
    const why = r.failure()?.errorText ?? ''
    if (why !== 'net::ERR_ABORTED') note('request failed', `${why} ${r.method()} ${r.url()}`)
  })
}

/** Empties the record and returns what in it is not expected, one line each. */
export function unexpectedNoise(expected: Expected[]): string[] {
  return noise.splice(0)
    .map((n) => `${n.kind}: ${n.text}`)
    .filter((line) => ![...EVERYWHERE, ...expected].some((e) => e.match.test(line)))
}
