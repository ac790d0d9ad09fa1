import type { SearchUnderstood } from '../../src-shared/schemas/search.ts'
import { languageName } from './language-phrases.ts'
import { queryWithout, type ParsedQuery } from './query-parser.ts'
import { stripLinks } from './words.ts'

/** What the query asked for, in the shapes the UI shows: reasons' filter words, chips, titles. */

export function filterReasons(p: ParsedQuery, cat: { name: string } | null): string[] {
  const out: string[] = []
  if (p.author) out.push(`by @${p.author}`)
  if (cat) out.push(`in ${cat.name}`)
  for (const h of p.has) out.push(h === 'image' ? 'has an image' : h === 'video' ? 'has a video' : 'has a link')
  if (p.lang) out.push(`in ${languageName(p.lang)}`)
  if (p.dates) out.push(`posted ${p.dates.label}`)
  for (const x of p.excluded) out.push(`without "${x}"`)
  return out
}

export function describe(p: ParsedQuery, cat: { slug: string; name: string } | null, corrections: Array<{ from: string; to: string }>, notes: string[]): SearchUnderstood {
  const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString())
  const chips: SearchUnderstood['chips'] = p.parts
    .filter((part) => part.kind !== 'category' || cat)
    .map((part) => ({ kind: part.kind, label: part.kind === 'category' && cat ? `in ${cat.name}` : part.label, queryWithout: queryWithout(p.raw, part) }))
  if (p.unknownLang !== null) notes.push(`"${p.unknownLang}" is not a language code such as de or es, so posts in every language were searched.`)
  // Removing a correction searches the word as typed: quoted, it is taken literally and never corrected.
  for (const c of corrections) {
    chips.push({ kind: 'correction', label: `showing results for "${c.to}" (you typed "${c.from}")`, queryWithout: asTyped(p.raw, c.from) })
  }
  return {
    text: p.text,
    terms: p.terms,
    phrases: p.phrases,
    excluded: p.excluded,
    author: p.author,
    category: cat ? { slug: cat.slug, name: cat.name } : null,
    lang: p.lang,
    has: p.has,
    mediaHints: p.mediaHints,
    after: iso(p.dates?.after),
    before: iso(p.dates?.before),
    corrections,
    notes,
    chips,
  }
}

/** One line for the command palette: the post's first line without links, cut at a word near 90 chars. */
export function titleOf(text: string): string {
  const line = stripLinks(text.split('\n').find((l) => l.trim()) ?? '')
  if (line.length <= 90) return line || '(no text)'
  const cut = line.slice(0, 90)
  const at = cut.lastIndexOf(' ')
  return `${(at > 50 ? cut.slice(0, at) : cut).trimEnd()}…`
}

/** The query with `word` quoted, so that it is searched exactly as typed. */
export function asTyped(raw: string, word: string): string {
  const esc = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return raw.replace(new RegExp(`(?<![\\p{L}\\p{N}"])${esc}(?![\\p{L}\\p{N}"])`, 'iu'), (m) => `"${m}"`)
}
