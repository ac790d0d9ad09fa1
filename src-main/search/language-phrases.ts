import { escapeRegExp } from '../../src-shared/regex.ts'
import { normalizeLangCode } from '../language/index.ts'

/**
 * Language asked for in a search: `lang:de`, English phrases ("posts in German", "in Spanish",
 * "German posts", "written in French") and the common languages' own phrases ("auf Deutsch",
 * "en español", "en français", "em português", "in italiano", "in het Nederlands"). Language names
 * come from ICU (Intl.DisplayNames), in English and in each of those languages, so "auf Englisch" and
 * "en alemán" work too; only the prepositions are written here.
 */

/** Languages a phrase may name: eld's 60 plus the other ISO 639-1 codes X uses. */
const CODES = ('am ar az be bg bn ca cs da de el en es et eu fa fi fr gu he hi hr hu hy is it ja ka kn ko ku lo lt lv ml mr ms ' +
  'nl no or pa pl pt ro ru sk sl sq sr sv ta te th tl tr uk ur vi yo zh id cy ht ne si my km ps sd dv ug gl la eo ga mk bs af sw').split(' ')

/** "<preposition> <language named in that language>", per language the phrase is written in. */
const NATIVE: Record<string, string[]> = {
  de: ['auf', 'in'], es: ['en'], fr: ['en'], pt: ['em'], it: ['in'], nl: ['in het', 'in'], ca: ['en'],
}

/** Words after "in <Language>" that keep it a language (else "tapas in Spanish restaurants" would be one). */
const AFTER_IN = 'about|on|from|by|with|that|which|posted|saved|since|before|after|during|and|or|mentioning|where|please|only'
const POSTS = 'posts?|tweets?|bookmarks?|threads?|ones|stuff|things|content'

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

interface Tables { english: RegExp[]; native: RegExp; names: Map<string, string>; nativeNames: Map<string, string> }
let tables: Tables | null = null

let english: Intl.DisplayNames | null = null

/** English name of a code, for chips and reasons ("German"). */
export function languageName(code: string): string {
  try {
    english ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })
    return english.of(code) ?? code
  } catch {
    return code
  }
}

function build(): Tables {
  const names = new Map<string, string>()
  const nativeNames = new Map<string, string>()
  const en = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })
  for (const c of CODES) {
    const n = en.of(c)
    if (n && !names.has(fold(n))) names.set(fold(n), c)
  }
  // a few names people use that ICU spells otherwise
  for (const [n, c] of [['farsi', 'fa'], ['tagalog', 'tl'], ['castilian', 'es'], ['flemish', 'nl'], ['mandarin', 'zh'], ['brazilian portuguese', 'pt']] as const) names.set(n, c)
  for (const [ui, preps] of Object.entries(NATIVE)) {
    const dn = new Intl.DisplayNames([ui], { type: 'language', fallback: 'none' })
    for (const c of CODES) {
      const n = dn.of(c)
      if (!n) continue
      for (const p of preps) {
        // "in Thai" (Dutch) reads as English: the English rule, which wants "in Thai" to end the phrase, decides it
        if (p === 'in' && names.has(fold(n))) continue
        if (!nativeNames.has(`${p} ${fold(n)}`)) nativeNames.set(`${p} ${fold(n)}`, c)
      }
    }
  }
  // Each name accented and plain ("español", "espanol"), longest first so "Norwegian Bokmål" beats "Norwegian".
  const alt = (keys: Iterable<string>, raw: (k: string) => string[]) =>
    [...new Set([...keys].flatMap(raw))].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')
  const englishNames = alt(names.keys(), (k) => [k])
  const L = '(?<![\\p{L}\\p{N}_:@#-])'
  const R = '(?![\\p{L}\\p{N}_])'
  const english = [
    // "posts in German", "written in German", "in German" (at the end, or before about/from/…)
    new RegExp(`${L}(?:(?:${POSTS}|written|posted)\\s+)?in\\s+(${englishNames})(?:\\s+(?:language|posts?|tweets?))?${R}(?=\\s*$|\\s*[,.;!?)]|\\s+(?:${AFTER_IN}|${POSTS})${R})`, 'giu'),
    // "German posts", "German-language tweets"
    new RegExp(`${L}(${englishNames})(?:[- ]language)?\\s+(?:${POSTS})${R}`, 'giu'),
  ]
  // Native phrases match their folded form, so the query is folded for them (same length, offsets kept).
  const native = new RegExp(`${L}(${alt(nativeNames.keys(), (k) => [k])})${R}`, 'giu')
  return { english, native, names, nativeNames }
}

/** Folds accents letter by letter, keeping the string's length (offsets stay valid for chips); ASCII has none to fold. */
const foldSameLength = (s: string): string => (/^[\x00-\x7f]*$/.test(s) ? s.toLowerCase() : [...s].map((ch) => {
  const f = fold(ch)
  return f.length === ch.length ? f : ch.toLowerCase()
}).join(''))

/** One phrase of each kind, so that V8 compiles each pattern here (its first runs cost as much as the build). */
const WARM_UP = ['posts in German about rust', 'German-language tweets', 'auf Deutsch', 'en español', 'lang:de sqlite', 'rust async runtime']

/**
 * Builds the tables and runs every pattern once: 90-180 ms, which the first search after a start
 * used to pay inside its request (bench/load.ts's first busy second). Called when search is created,
 * before the server answers anything; later calls cost nothing.
 */
export function prepareLanguagePhrases(): void {
  if (tables) return
  tables = build()
  for (const text of WARM_UP) findLanguagePhrases(text)
}

const LANG_PREFIX = /(?<![\p{L}\p{N}_])lang(?:uage)?:([\p{L}-]+)/giu

/**
 * What `s.matchAll(re)` gives, for a global `re` of this module's only: matchAll copies the pattern on
 * every call, and a copy of the names' alternations re-read their long source (~0.03 ms a search).
 */
function matchesOf(re: RegExp, s: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = []
  re.lastIndex = 0
  for (let m = re.exec(s); m; m = re.exec(s)) {
    out.push(m)
    if (m[0] === '') re.lastIndex += (s.codePointAt(re.lastIndex) ?? 0) > 0xffff ? 2 : 1
  }
  re.lastIndex = 0
  return out
}

export interface LanguagePhrase { lang: string; start: number; end: number; label: string }

/** The language phrases in `text` (lang:xx included), with their spans. An unknown `lang:` value comes back with lang null. */
export function findLanguagePhrases(text: string): Array<Omit<LanguagePhrase, 'lang'> & { lang: string | null }> {
  tables ??= build()
  const out: Array<Omit<LanguagePhrase, 'lang'> & { lang: string | null }> = []
  const taken = (a: number, b: number) => out.some((p) => a < p.end && b > p.start)
  const add = (lang: string | null, start: number, end: number, asked: string) => {
    if (taken(start, end)) return
    out.push({ lang, start, end, label: lang ? `in ${languageName(lang)}` : `language "${asked}"` })
  }
  for (const m of matchesOf(LANG_PREFIX, text)) {
    const v = m[1]
    const code = v.length <= 3 || /[-_]/.test(v) ? normalizeLangCode(v) : (tables.names.get(fold(v)) ?? null)
    add(code, m.index, m.index + m[0].length, v)
  }
  const folded = foldSameLength(text)
  for (const m of matchesOf(tables.native, folded)) add(tables.nativeNames.get(m[1].replace(/\s+/g, ' ')) ?? null, m.index, m.index + m[0].length, m[1])
  for (const re of tables.english) {
    for (const m of matchesOf(re, folded)) add(tables.names.get(m[1].replace(/\s+/g, ' ')) ?? null, m.index, m.index + m[0].length, m[1])
  }
  return out.filter((p) => p.lang !== null || /lang/i.test(text.slice(p.start, p.end))).sort((a, b) => a.start - b.start)
}
