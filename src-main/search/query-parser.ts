import type { SearchMedia } from '../../src-shared/schemas/search.ts'
import { findDatePhrases, intersect, type DateRange } from './date-phrases.ts'
import { findLanguagePhrases } from './language-phrases.ts'

/** A query taken apart: filters, phrases, exclusions and the free words left for ranking. */
export interface ParsedQuery {
  raw: string
  /** Free text with every filter removed (input to the sentence embedding). */
  text: string
  /** Content words of `text`, lower case, stop words and filler dropped, de-duplicated. */
  terms: string[]
  phrases: string[]
  excluded: string[]
  author: string | null
  /** The category as typed after in: (resolved against the library later). */
  category: string | null
  has: SearchMedia[]
  mediaHints: SearchMedia[]
  dates: DateRange | null
  /** ISO 639-1 code asked for (`lang:de`, "posts in German", "auf Deutsch"). */
  lang: string | null
  /** A `lang:` value that names no language (ignored, with a note). */
  unknownLang: string | null
  /** Parts that became filters, with their span in `raw`, for chips. */
  parts: Array<{ kind: 'author' | 'category' | 'media' | 'date' | 'phrase' | 'exclude' | 'language'; label: string; start: number; end: number }>
}

const STOP = new Set(('a an and are as at be been but by can could did do does for from had has have how i if in into ' +
  'is it its me my of on or our so some than that the their them then there these they this those to up was we were ' +
  'what when where which who why will with would you your about also any just like more most not only over such very ' +
  'find show search looking look remember remembered recall saved save bookmarked bookmark bookmarks post posts ' +
  'tweet tweets tweeted someone somebody something thing stuff one shared said wrote written mentioned mentioning ' +
  'mentions mention called named there got get see seen saw talking talked talks say says').split(' '))

const MEDIA_WORDS: Record<string, SearchMedia> = {
  image: 'image', images: 'image', img: 'image', photo: 'image', photos: 'image', picture: 'image', pictures: 'image',
  pic: 'image', pics: 'image', screenshot: 'image', screenshots: 'image', screengrab: 'image', chart: 'image',
  diagram: 'image', meme: 'image', video: 'video', videos: 'video', clip: 'video', clips: 'video', gif: 'video',
  link: 'link', links: 'link', article: 'link', url: 'link',
}

const HAS_VALUES: Record<string, SearchMedia> = {
  image: 'image', images: 'image', photo: 'image', photos: 'image', picture: 'image', pictures: 'image', media: 'image',
  video: 'video', videos: 'video', gif: 'video', link: 'link', links: 'link', url: 'link', urls: 'link',
}

const MEDIA_LABEL: Record<SearchMedia, string> = { image: 'with an image', video: 'with a video', link: 'with a link' }

type Part = ParsedQuery['parts'][number]

/** Takes the matches of `re` out of `s` (blanking them so later offsets stay valid). */
function take(s: { text: string }, re: RegExp, on: (m: RegExpExecArray) => Omit<Part, 'start' | 'end'> | null, parts: Part[]) {
  re.lastIndex = 0
  const hits: Array<[number, number]> = []
  for (let m = re.exec(s.text); m; m = re.exec(s.text)) {
    const part = on(m)
    if (!part) continue
    parts.push({ ...part, start: m.index, end: m.index + m[0].length })
    hits.push([m.index, m.index + m[0].length])
  }
  for (const [a, b] of hits) s.text = s.text.slice(0, a) + ' '.repeat(b - a) + s.text.slice(b)
}

export const contentWords = (text: string): string[] => {
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’+#.]*\*?/gu) ?? []
  const out: string[] = []
  for (let w of words) {
    w = w.replace(/[.'’]+$/, '').replace(/['’]s$/, '')
    if (w.length === 0 || STOP.has(w.replace(/\*$/, '')) || out.includes(w)) continue
    out.push(w)
  }
  return out
}

export function parseQuery(raw: string, now: number): ParsedQuery {
  const s = { text: raw }
  const parts: Part[] = []
  const phrases: string[] = []
  const excluded: string[] = []
  let author: string | null = null
  let category: string | null = null
  const has = new Set<SearchMedia>()

  take(s, /(^|\s)-"([^"]+)"/g, (m) => (excluded.push(m[2].toLowerCase()), { kind: 'exclude', label: `not "${m[2]}"` }), parts)
  take(s, /\bin:"([^"]+)"/gi, (m) => ((category = m[1].trim()), { kind: 'category', label: `in ${m[1].trim()}` }), parts)
  take(s, /"([^"]+)"/g, (m) => {
    const p = m[1].trim()
    if (!p) return null
    phrases.push(p.toLowerCase())
    return { kind: 'phrase', label: `"${p}"` }
  }, parts)
  take(s, /\b(?:from|by|author):@?(\w{1,15})\b|(?:^|\s)(?:by|from|author) @(\w{1,15})\b/gi, (m) => {
    author = (m[1] ?? m[2]).toLowerCase()
    return { kind: 'author', label: `by @${author}` }
  }, parts)
  take(s, /\bin:([\p{L}\p{N}_-]+)/giu, (m) => ((category = m[1]), { kind: 'category', label: `in ${m[1]}` }), parts)
  take(s, /\bin (?:the |my )?([\p{L}\p{N} _-]{2,40}?) (?:category|folder)\b/giu,
    (m) => ((category = m[1].trim()), { kind: 'category', label: `in ${m[1].trim()}` }), parts)
  take(s, /\bhas:(\w+)\b/gi, (m) => {
    const v = HAS_VALUES[m[1].toLowerCase()]
    if (!v) return null
    has.add(v)
    return { kind: 'media', label: MEDIA_LABEL[v] }
  }, parts)
  // Before minus words and dates; the phrase's words ("posts in German") are then not searched for.
  let lang: string | null = null
  let unknownLang: string | null = null
  for (const l of findLanguagePhrases(s.text)) {
    if (l.lang) {
      lang ??= l.lang
      if (lang === l.lang) parts.push({ kind: 'language', label: l.label, start: l.start, end: l.end })
    } else {
      unknownLang = s.text.slice(l.start, l.end).replace(/^[^:]*:/, '')
    }
    s.text = s.text.slice(0, l.start) + ' '.repeat(l.end - l.start) + s.text.slice(l.end)
  }
  take(s, /(^|\s)-([\p{L}\p{N}][\p{L}\p{N}_'.+#-]*)/gu, (m) => {
    excluded.push(m[2].toLowerCase())
    return { kind: 'exclude', label: `not "${m[2]}"` }
  }, parts)

  const dateMatches = findDatePhrases(s.text, now)
  for (const d of dateMatches) {
    parts.push({ kind: 'date', label: d.range.label, start: d.start, end: d.end })
    s.text = s.text.slice(0, d.start) + ' '.repeat(d.end - d.start) + s.text.slice(d.end)
  }

  const text = s.text.replace(/\s+/g, ' ').trim()
  const words = contentWords(text)
  const mediaHints = [...new Set(words.map((w) => MEDIA_WORDS[w]).filter((m): m is SearchMedia => !!m && !has.has(m)))]
  return {
    raw,
    text,
    terms: words,
    phrases,
    excluded,
    author,
    category,
    has: [...has],
    mediaHints,
    dates: intersect(dateMatches.map((d) => d.range)),
    lang,
    unknownLang,
    parts: parts.sort((a, b) => a.start - b.start),
  }
}

/** The query with one part cut out, whitespace tidied: what a removed chip searches for. */
export const queryWithout = (raw: string, part: { start: number; end: number }): string =>
  (raw.slice(0, part.start) + ' ' + raw.slice(part.end)).replace(/\s+/g, ' ').trim()
