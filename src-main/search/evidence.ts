import type { SearchDocument } from '../store/index.ts'

/**
 * The evidence that a post matches the query's words (where they occur, BM25 as FTS5 computes it), and
 * that evidence as a 0-1 relevance and a sentence saying why.
 */

export interface Evidence {
  /** BM25 (higher is better), null when the post came only from the semantic side. */
  bm25: number | null
  /** Cosine similarity to the query, null when not computed. */
  cosine: number | null
  /** Fraction of the query's words (and phrases) found in the post. */
  coverage: number
  matchedTerms: string[]
  reasonParts: string[]
}

/** BM25 per query word at which lexical confidence reaches 1 - 1/e (fitted on bench/search-relevance.ts). */
export const BM25_SCALE = 4
/** Cosines below this are what unrelated posts score with averaged word vectors. */
export const COSINE_FLOOR = 0.35
const COSINE_SPAN = 0.5

/** How much meaning counts beside the words: a query with a typo the encoder read as something else counts it for less. */
export const SEMANTIC_WEIGHT = 0.85

export function relevanceOf(e: Evidence, nTerms: number, semanticWeight = SEMANTIC_WEIGHT): number {
  const lexConf = e.bm25 === null ? 0 : 1 - Math.exp(-e.bm25 / Math.max(1, nTerms) / BM25_SCALE)
  const lex = lexConf * Math.pow(e.coverage, 1.5)
  const sem = e.cosine === null ? 0 : Math.min(1, Math.max(0, (e.cosine - COSINE_FLOOR) / COSINE_SPAN))
  const rel = 1 - (1 - lex) * (1 - semanticWeight * sem)
  return Math.round(Math.min(1, Math.max(0, rel)) * 1000) / 1000
}

const ENTITY_LABEL: Record<string, string> = {
  tools: 'tool', people: 'person', places: 'place', orgs: 'organisation', organizations: 'organisation',
  repos: 'repository', hashtags: 'hashtag', mentions: 'mention', domains: 'site', topics: 'topic',
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’+#]*/gu
/** WORD for exec() loops (its own lastIndex). */
const WORD_AT = new RegExp(WORD)
const words = (s: string | null): string[] => (s ?? '').toLowerCase().match(WORD) ?? []

export interface TermMatcher {
  term: string
  /** A stem from the spelling fallback, matched as a prefix. */
  corrected: string | null
}

/** Plural and -ing/-ed endings stripped, close to what the porter tokenizer merges. */
function stem(w: string): string {
  if (w.length <= 3) return w
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y'
  if (w.endsWith('sses')) return w.slice(0, -2)
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w
  if (w.endsWith('ing') && w.length > 5) return w.slice(0, -3)
  if (w.endsWith('ed') && w.length > 4) return w.slice(0, -2)
  if (/(ch|sh|x|z)es$/.test(w)) return w.slice(0, -2)
  if (w.endsWith('s')) return w.slice(0, -1)
  return w
}

/** Stems of the words seen (pure, so kept; cleared when large): posts repeat their words. */
const stems = new Map<string, string>()
const stemOf = (w: string): string => {
  let s = stems.get(w)
  if (s === undefined) {
    if (stems.size > 50_000) stems.clear()
    stems.set(w, (s = stem(w)))
  }
  return s
}

/** Each matcher's term without its prefix stars, and its stem: taken once, not for every word of every post compared with it. */
const bareTerms = new WeakMap<TermMatcher, { term: string; stem: string }>()
const bare = (t: TermMatcher): { term: string; stem: string } => {
  let b = bareTerms.get(t)
  if (!b) {
    const term = t.term.replace(/\*+$/, '')
    bareTerms.set(t, (b = { term, stem: stemOf(term) }))
  }
  return b
}

function matchesWord(t: TermMatcher, w: string): boolean {
  if (t.corrected) return w.startsWith(t.corrected)
  const { term, stem } = bare(t)
  return w === term || stemOf(w) === stem || (term.length >= 4 && w.startsWith(term))
}

/**
 * What a text must hold, lower-cased, for any of its words to match `t` (matchesWord): the corrected
 * stem, or the term's stem without a final "y" ("stories" and "story" both hold "stor"). Checked
 * before a text is split into words, which most texts of the pool then never are.
 */
const needles = new WeakMap<TermMatcher, string>()
const needleOf = (t: TermMatcher): string => {
  let n = needles.get(t)
  if (n === undefined) {
    const stem = bare(t).stem
    needles.set(t, (n = t.corrected ?? (stem.endsWith('y') ? stem.slice(0, -1) : stem)))
  }
  return n
}

/** A character WORD continues a word with (its second class). */
const CONT = /[\p{L}\p{N}'’+#]/uy
const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff

/** The length (1 or 2 code units) of the character ending at `i` if WORD continues a word with it, else 0. */
function contEndingAt(s: string, i: number): number {
  const c = s.charCodeAt(i - 1)
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 39 || c === 43 || c === 35 ? 1 : 0
  const n = isLowSurrogate(c) && i >= 2 && isHighSurrogate(s.charCodeAt(i - 2)) ? 2 : 1
  CONT.lastIndex = i - n
  return CONT.test(s) ? n : 0
}

/**
 * The first word of `s` (as s.match(WORD) splits it) that holds `needle` and passes, read from `shown`
 * (`s` itself, or the text `s` lower-cases with one character for each of its own): only the words around
 * the needle's occurrences are read, not the whole text. A run of WORD's continuing characters holds one
 * word at most, from its first letter or digit to the run's end, so the word around an occurrence is the
 * first match of WORD from the start of its run, if that covers the occurrence.
 */
export function firstWordHolding(s: string, needle: string, pass: (w: string) => boolean, shown = s): string | null {
  if (needle === '') return (shown.match(WORD) ?? []).find(pass) ?? null
  const re = WORD_AT
  for (let at = s.indexOf(needle); at >= 0; at = s.indexOf(needle, at + 1)) {
    let from = at
    for (let n: number; from > 0 && (n = contEndingAt(s, from)) > 0;) from -= n
    re.lastIndex = from
    const m = re.exec(s)
    if (!m || m.index > at || m.index + m[0].length < at + needle.length) continue
    const w = shown === s ? m[0] : shown.slice(m.index, m.index + m[0].length)
    if (pass(w)) return w
  }
  return null
}

export const someWordHolding = (s: string, needle: string, pass: (w: string) => boolean): boolean => firstWordHolding(s, needle, pass) !== null

/** Texts of a post kept lower-cased (its fields come first; entity, tag and category names after them). */
const TEXTS_KEPT = 16

/**
 * Each of a post's texts lower-cased once, however many terms look at it. They are found by comparing
 * them (the same string is found at once), not in a Map: a key's hash reads the whole text, and a post's
 * texts are new strings every search.
 */
function textsOnce() {
  const texts: string[] = []
  const lowered: string[] = []
  const lowerOf = (s: string): string => {
    const i = texts.indexOf(s)
    if (i >= 0) return lowered[i]
    const l = s.toLowerCase()
    if (texts.length < TEXTS_KEPT) {
      texts.push(s)
      lowered.push(l)
    }
    return l
  }
  /** Some word of the text matches the term (only a word holding the needle can). */
  const anyWord = (t: TermMatcher, s: string | null): boolean =>
    !!s && someWordHolding(lowerOf(s), needleOf(t), (w) => matchesWord(t, w))
  return { lowerOf, anyWord }
}

function entityList(json: string | null): Array<{ kind: string; name: string }> {
  if (!json) return []
  try {
    const v = JSON.parse(json) as Record<string, unknown>
    const out: Array<{ kind: string; name: string }> = []
    for (const [key, list] of Object.entries(v ?? {})) {
      if (!Array.isArray(list)) continue
      for (const item of list) {
        const name = typeof item === 'string' ? item
          : item && typeof item === 'object' ? String((item as Record<string, unknown>).name ?? (item as Record<string, unknown>).value ?? '') : ''
        if (name) out.push({ kind: ENTITY_LABEL[key] ?? key.replace(/s$/, ''), name })
      }
    }
    return out
  } catch {
    return []
  }
}

/**
 * Where the query's words occur in the post, in words: "mentions “Leipzig” and “drone”", "tagged
 * “databases”", "in the category “Dev Tools”". Each word is shown as the post spells it; quotes are
 * “ ” so the UI can set them apart. No numbers: those are the relevance's, shown on hover.
 */
export function lexicalEvidence(doc: SearchDocument, terms: TermMatcher[], phrases: string[]): Pick<Evidence, 'coverage' | 'matchedTerms' | 'reasonParts'> {
  const tags = (doc.tags ?? '').split('|').filter(Boolean)
  const cats = (doc.categories ?? '').split('|').filter(Boolean)
  const entities = entityList(doc.entitiesJson)
  const mentions: string[] = []
  const tagged: string[] = []
  const inCats: string[] = []
  const matched: string[] = []
  const { lowerOf, anyWord } = textsOnce()
  for (const t of terms) {
    const spoken = [doc.text, doc.author, doc.summary, doc.ocr, doc.urls].some((f) => anyWord(t, f))
    const ent = entities.find((x) => anyWord(t, x.name))
    const tag = tags.find((x) => anyWord(t, x))
    const cat = cats.find((x) => anyWord(t, x))
    if (!spoken && !ent && !tag && !cat) continue
    matched.push(t.term)
    const as = (w: string) => (t.corrected ? `“${w}” (for “${t.term}”)` : `“${w}”`)
    if (spoken || ent) mentions.push(as(spelled(doc, t, lowerOf) ?? ent?.name ?? t.term))
    else if (tag) tagged.push(as(tag))
    else if (cat) inCats.push(as(cat))
  }
  const parts: string[] = []
  let phraseHits = 0
  for (const p of phrases) {
    if ([doc.text, doc.author, doc.ocr, doc.summary].some((s) => lowerOf(s ?? '').includes(p))) {
      phraseHits++
      parts.push(`has the exact phrase “${p}”`)
    }
  }
  if (mentions.length) parts.push(`mentions ${joinAnd(mentions.slice(0, 4))}`)
  if (tagged.length) parts.push(`tagged ${joinAnd(tagged.slice(0, 3))}`)
  if (inCats.length) parts.push(`in the ${inCats.length > 1 ? 'categories' : 'category'} ${joinAnd(inCats.slice(0, 3))}`)
  const total = terms.length + phrases.length
  return {
    coverage: total === 0 ? 0 : (matched.length + phraseHits) / total,
    matchedTerms: matched,
    reasonParts: parts,
  }
}

/**
 * The word as the post writes it ("Leipzig" for "leipzig"), from its text, summary or image text. A
 * text without the term's needle is skipped unless the needle holds a sigma: each word is lower-cased
 * alone here, and only a final sigma lower-cases differently alone than inside its text.
 */
function spelled(doc: SearchDocument, t: TermMatcher, lowerOf: (s: string) => string): string | null {
  const needle = needleOf(t)
  const sure = !/[σς]/.test(needle)
  const pass = (x: string) => {
    const l = x.toLowerCase()
    return l.includes(needle) && matchesWord(t, l)
  }
  for (const s of [doc.text, doc.summary, doc.ocr, doc.author]) {
    if (!s || (sure && !lowerOf(s).includes(needle))) continue
    // Where lower-casing kept each character one character, the words are where the lower-cased text's are.
    const w = sure && lowerOf(s).length === s.length ? firstWordHolding(lowerOf(s), needle, pass, s) : firstWord(s, pass)
    if (w) return w
  }
  return null
}

/** The first word of `s` that passes, reading no further than it. */
function firstWord(s: string, pass: (w: string) => boolean): string | null {
  const re = WORD_AT
  re.lastIndex = 0
  for (let m = re.exec(s); m; m = re.exec(s)) if (pass(m[0])) return m[0]
  return null
}

const FIELD_WEIGHTS: Array<[keyof SearchDocument, number]> = [
  ['text', 4], ['author', 3], ['urls', 1.5], ['entitiesJson', 2], ['tags', 2.5], ['ocr', 1.2], ['summary', 1.5], ['categories', 1.5],
]

/** FTS5's BM25 (k1 1.2) with each document taken as average length; `counts` holds each term's posting count. */
export function approxBm25(doc: SearchDocument, terms: TermMatcher[], phrases: string[], counts: Map<string, number>, n: number): number {
  const idf = (df: number) => Math.max(1e-6, Math.log((n - df + 0.5) / (df + 0.5)))
  let score = 0
  const add = (df: number, tfw: number) => {
    if (tfw > 0) score += (idf(df) * tfw * 2.2) / (tfw + 1.2)
  }
  for (const t of terms) {
    const df = counts.get(t.corrected ? `"${t.corrected}"*` : `"${t.term.replace(/\*+$/, '')}"${t.term.endsWith('*') ? '*' : ''}`) ?? 1
    let tfw = 0
    for (const [field, w] of FIELD_WEIGHTS) tfw += w * words(doc[field] as string | null).filter((x) => matchesWord(t, x)).length
    add(df, tfw)
  }
  for (const p of phrases) {
    const df = counts.get(`"${p.replace(/"/g, '""')}"`) ?? 1
    let tfw = 0
    for (const [field, w] of FIELD_WEIGHTS) tfw += w * ((doc[field] as string | null) ?? '').toLowerCase().split(p).length - w
    add(df, tfw)
  }
  return score
}

/** The word in the post that a corrected stem stands for ("databas" -> "databases"). */
export function surface(doc: Pick<SearchDocument, 'text' | 'ocr' | 'summary' | 'tags'>, stemPrefix: string): string | null {
  for (const s of [doc.text, doc.tags, doc.summary, doc.ocr]) {
    const w = words(s).find((x) => x.startsWith(stemPrefix))
    if (w) return w
  }
  return null
}

export const joinAnd = (xs: string[]): string =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`

export const sentence = (parts: string[]): string => {
  const s = parts.filter(Boolean).join('; ')
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : 'Matched your search'
}
