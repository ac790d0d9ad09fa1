/**
 * The language detector on real posts: the fixtures' posts that carry X's own `lang` (the archive's
 * tweets.js and the GraphQL captures' legacy.lang), detected as the importer does (src-main/language),
 * compared with X's code. Prints JSON: agreement, answers per language, null rate, speed, memory.
 * With `franc-min` or `tinyld` resolvable (not dependencies; install them in a scratch folder and run
 * with NODE_PATH pointing there), their raw top answers are scored the same way for comparison.
 * Usage: node bench/language-detect.ts   (skips, saying so, without ../shared/fixtures)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { detectableText, loadLanguageDetector, NO_LANGUAGE_CODES, normalizeLangCode } from '../src-main/language/index.ts'

const FIXTURES = join(import.meta.dirname, '../../shared/fixtures/exports')
if (!existsSync(FIXTURES)) {
  process.stdout.write(JSON.stringify({ bench: 'language-detect', skipped: '../shared/fixtures is absent' }) + '\n')
  process.exit(0)
}

/** Post id → {text, X's code}: the archive, then every GraphQL capture (note posts' full text). */
const posts = new Map<string, { text: string; lang: string }>()
const archive = readFileSync(join(FIXTURES, 'archive/alrocar_x/tweets.js'), 'utf8')
for (const { tweet: t } of JSON.parse(archive.slice(archive.indexOf('['))) as { tweet: { id_str: string; full_text: string; lang: string } }[]) {
  posts.set(t.id_str, { text: t.full_text, lang: t.lang })
}
const walk = (o: unknown): void => {
  if (Array.isArray(o)) return o.forEach(walk)
  if (!o || typeof o !== 'object') return
  const r = o as { rest_id?: string; legacy?: { full_text?: string; lang?: string }; note_tweet?: { note_tweet_results?: { result?: { text?: string } } } }
  if (r.rest_id && typeof r.legacy?.full_text === 'string' && r.legacy.lang) {
    posts.set(r.rest_id, { text: r.note_tweet?.note_tweet_results?.result?.text ?? r.legacy.full_text, lang: r.legacy.lang })
  }
  for (const v of Object.values(o)) walk(v)
}
for (const d of ['graphql', 'derived']) {
  for (const f of readdirSync(join(FIXTURES, d)).filter((n) => n.endsWith('.json'))) walk(JSON.parse(readFileSync(join(FIXTURES, d, f), 'utf8')))
}
const all = [...posts.values()]
const MAIN = new Set(['en', 'es', 'ja', 'pt', 'ca', 'fr', 'it', 'de'])

function score(detect: (text: string) => string | null) {
  let right = 0, wrong = 0, none = 0, guessedOnNoLanguage = 0, mainRight = 0, mainTotal = 0
  const perLanguage: Record<string, { agree: number; differ: number; none: number }> = {}
  for (const p of all) {
    const got = detect(p.text)
    if (NO_LANGUAGE_CODES.has(p.lang) || p.lang === 'und') {
      if (got !== null) guessedOnNoLanguage++
      continue
    }
    const want = normalizeLangCode(p.lang)
    const row = (perLanguage[want ?? p.lang] ??= { agree: 0, differ: 0, none: 0 })
    if (got === null) { none++; row.none++ } else if (got === want) { right++; row.agree++ } else { wrong++; row.differ++ }
    if (want && MAIN.has(want)) { mainTotal++; if (got === want) mainRight++ }
  }
  const pct = (x: number) => Math.round(x * 1000) / 10
  return {
    agreeWhenAnsweringPct: pct(right / (right + wrong)), answeredPct: pct((right + wrong) / (right + wrong + none)),
    mainLanguagesAgreePct: pct(mainRight / mainTotal), right, wrong, none, guessedOnNoLanguage, perLanguage,
  }
}

function speed(detect: (text: string) => unknown): number {
  const t0 = performance.now()
  let n = 0
  for (let r = 0; r < 5; r++) for (const p of all) { detect(p.text); n++ }
  return Math.round(((performance.now() - t0) * 1000) / n)
}

const heap0 = process.memoryUsage().heapUsed
const t0 = performance.now()
const detect = await loadLanguageDetector()
const loadMs = Math.round(performance.now() - t0)
const heapMb = Math.round((process.memoryUsage().heapUsed - heap0) / 1e6)
const result: Record<string, unknown> = {
  bench: 'language-detect',
  posts: all.length,
  byXCode: Object.fromEntries(Object.entries(all.reduce<Record<string, number>>((m, p) => ((m[p.lang] = (m[p.lang] ?? 0) + 1), m), {})).sort((a, b) => b[1] - a[1])),
  sheaf: { detector: 'eld/extrasmall with Sheaf\'s rules (10 letters, reliable, margin 0.01, 200 chars)', loadMs, heapMb, usPerPost: speed(detect), ...score(detect) },
}

// Optional comparisons: their top answer on the same cleaned text, no thresholds.
const require = createRequire(join(process.cwd(), 'noop.js'))
const tryImport = async (name: string): Promise<Record<string, unknown> | null> => {
  try {
    return (await import(require.resolve(name))) as Record<string, unknown>
  } catch {
    return null
  }
}
const ISO3: Record<string, string> = { eng: 'en', spa: 'es', por: 'pt', cat: 'ca', fra: 'fr', ita: 'it', deu: 'de', jpn: 'ja', nld: 'nl', glg: 'gl' }
const franc = await tryImport('franc-min')
if (franc) {
  const f = franc.franc as (t: string, o: { minLength: number }) => string
  const d = (t: string) => { const c = f(detectableText(t), { minLength: 1 }); return c === 'und' ? null : (ISO3[c] ?? c) }
  result['franc-min'] = { usPerPost: speed(d), ...score(d) }
} else result['franc-min'] = 'not installed (not a dependency)'
const tinyld = await tryImport('tinyld')
if (tinyld) {
  const f = tinyld.detect as (t: string) => string
  const d = (t: string) => f(detectableText(t)) || null
  result.tinyld = { usPerPost: speed(d), ...score(d) }
} else result.tinyld = 'not installed (not a dependency)'

process.stdout.write(JSON.stringify(result, null, 2) + '\n')
