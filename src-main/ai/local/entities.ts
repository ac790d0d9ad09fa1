import { createRequire } from 'node:module'
import type Compromise from 'compromise'
import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import { loadGazetteer, type Gazetteer, type GazetteerHit } from './gazetteer.ts'
import { readText, type TextDoc } from './nlp.ts'
import { parseRepoUrl, type RepoRef } from './repos.ts'
import { cleanText, decodeEntities } from './text.ts'
import { loadWordVectors, type WordVectors } from './word-vectors.ts'

// compromise (~40 MB resident) loads on first use, not wherever this folder is imported.
const require = createRequire(import.meta.url)
let compromise: typeof Compromise | undefined
const nlp = (text: string) => (compromise ??= require('compromise') as typeof Compromise)(text)

export type PostKind = 'thread' | 'quote' | 'reply' | 'link' | 'media' | 'text'

export type Entities = {
  hashtags: string[]
  mentions: string[]
  /** Real destinations (expanded), never t.co. */
  urls: string[]
  domains: string[]
  tools: string[]
  products: string[]
  companies: string[]
  people: string[]
  places: string[]
  organisations: string[]
  repos: RepoRef[]
  kind: PostKind
  /** Topics of the gazetteer names found (e.g. "ai", "programming"): cues for tags and categories. */
  topics: string[]
  /** Gazetteer concepts found (e.g. "tutorial", "startup"): cues, not named entities. */
  concepts: string[]
}

export type EntityDeps = { doc?: TextDoc; gazetteer?: Gazetteer; vectors?: WordVectors }

type PostLike = Pick<NormalizedPost, 'text' | 'authorHandle' | 'urls' | 'media' | 'inReplyToPostId'> &
  Partial<Pick<NormalizedPost, 'quoted' | 'rawJson'>>

const HASHTAG_RE = /(?:^|[^\p{L}\p{N}_&/])#([\p{L}\p{N}_]*[\p{L}_][\p{L}\p{N}_]*)/gu
const MENTION_RE = /(?:^|[^\w@])@(\w{1,15})\b/g
/** Two or more capitalised words in a row: the only spans where compromise finds anything we lack. */
const CAPITALISED_SPAN = /\b[A-Z][\p{Ll}'’]+(?:\s+(?:of\s+|de\s+|van\s+)?[A-Z][\p{Ll}'’]+)+/u
const SHORTENERS = new Set(['t.co'])
/** SIF weight above which a word is rare (Zipf rank beyond ~5,000): names usually have one. */
const RARE_WEIGHT = 0.98
/** "in San Francisco": common words, but a place all the same. */
const PLACE_LEAD = /^(in|at|from|near|visiting|across|around)$/

const uniqCi = (xs: Iterable<string>): string[] => {
  const seen = new Map<string, string>()
  for (const x of xs) if (x && !seen.has(x.toLowerCase())) seen.set(x.toLowerCase(), x)
  return [...seen.values()]
}

const hostOf = (u: string): string | null => {
  try {
    return new URL(u).hostname.toLowerCase().replace(/^www\./, '')
  } catch {
    return null
  }
}

const isStatusLink = (u: string) => /^https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/[^/]+\/status\/\d+/i.test(u)

export const postKind = (post: PostLike): PostKind => {
  if (post.quoted) return 'quote'
  const text = post.text.trimStart()
  if (post.inReplyToPostId) {
    const m = post.rawJson ? /"in_reply_to_screen_name":"(\w+)"/.exec(post.rawJson) : null
    if (m) return m[1].toLowerCase() === post.authorHandle.toLowerCase() ? 'thread' : 'reply'
    // X prefixes replies to others with their handles; a reply to oneself starts with the text.
    return text.startsWith('@') && !text.toLowerCase().startsWith(`@${post.authorHandle.toLowerCase()} `) ? 'reply' : 'thread'
  }
  if (/🧵|^\(?1\s*\/\s*(?:\d+|n)?\)?\s|\bthread\s*(?:👇|⬇️|below)/iu.test(text)) return 'thread'
  if (post.urls.some((u) => !isStatusLink(u.expandedUrl))) return 'link'
  if (post.media.length > 0) return 'media'
  return 'text'
}

const NO_NAMES = { people: [], places: [], organisations: [] }
const SPAN_WITH_LEAD = new RegExp(`(?:\\b[\\p{L}]+\\s+)?${CAPITALISED_SPAN.source}`, 'gu')

/**
 * compromise costs ~1 ms a call whatever the length, so it sees only the capitalised spans (with the
 * word before, which tells places from people: "in Las Vegas") and only when a span holds a word that
 * is rare in general English and not already a known name. "Player Support" or "Live Chat" never go.
 */
const compromiseNames = (text: string, known: Set<string>, vectors: WordVectors) => {
  const spans: string[] = []
  for (const m of text.matchAll(SPAN_WITH_LEAD)) {
    const words = m[0].split(/\s+/)
    const rare = PLACE_LEAD.test(words[0]) || words.some((w) => {
      const lower = w.toLowerCase().replace(/['’]s$/, '')
      if (known.has(lower) || !/^\p{Lu}/u.test(w)) return false
      const i = vectors.indexOf(lower)
      return i < 0 || vectors.weight(i) > RARE_WEIGHT
    })
    if (rare && spans.push(m[0]) >= 3) break
  }
  if (spans.length === 0) return NO_NAMES
  const doc = nlp(spans.join('. '))
  // compromise may return a list ("Norway, Netherlands") or keep stray punctuation ("Europe*").
  const clean = (xs: string[]) =>
    xs
      .flatMap((s) => s.split(/,\s*|\s+(?:and|&)\s+/))
      .map((s) => s.replace(/['’]s$/, '').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').trim())
      .filter((s) => s.length > 2 && /^\p{Lu}/u.test(s))
  return {
    people: clean(doc.people().out('array') as string[]),
    places: clean(doc.places().out('array') as string[]),
    organisations: clean(doc.organizations().out('array') as string[]),
  }
}

export const extractEntities = (post: PostLike, deps: EntityDeps = {}): Entities => {
  const gazetteer = deps.gazetteer ?? loadGazetteer()
  const text = decodeEntities(post.text)
  const doc = deps.doc ?? readText(text)

  const hashtags: string[] = []
  const mentions: string[] = []
  const textUrls: string[] = []
  for (const t of doc.tokens) {
    if (t.type === 'hashtag') hashtags.push(t.normal.slice(1))
    else if (t.type === 'mention') mentions.push(t.normal.slice(1))
    else if (t.type === 'url') textUrls.push(/^https?:/i.test(t.normal) ? t.normal : `https://${t.normal}`)
  }
  // wink misses non-Latin hashtags (#水星の魔女) and handles glued to punctuation; the regexes back it up.
  const tagged = [...text.matchAll(HASHTAG_RE)].map((m) => m[1])
  const handles = [...text.matchAll(MENTION_RE)].map((m) => m[1])
  // wink cuts #G_Witch to #G: drop its tokens that are only the start of a longer one.
  const whole = (xs: string[], full: string[]) => xs.filter((x) => !full.some((f) => f.length > x.length && f.toLowerCase().startsWith(x.toLowerCase())))
  // wink's tokens are lowercased: the regex forms, in their own case, come first.
  hashtags.splice(0, hashtags.length, ...tagged, ...whole(hashtags, tagged))
  mentions.splice(0, mentions.length, ...handles, ...whole(mentions, handles))

  const expanded = [...post.urls, ...(post.quoted?.urls ?? [])].map((u) => u.expandedUrl || u.url)
  const urls = uniqCi([...expanded, ...textUrls].filter((u) => !SHORTENERS.has(hostOf(u) ?? '')))
  const domains = uniqCi(urls.map(hostOf).filter((h): h is string => h !== null))
  const repos: RepoRef[] = []
  for (const u of urls) {
    const r = parseRepoUrl(u)
    if (r && !repos.some((x) => x.url === r.url)) repos.push(r)
  }

  const alt = post.media.map((m) => m.altText ?? '').join(' ')
  // Line breaks stay: the matcher treats a line start like a sentence start.
  const matchText = [text, decodeEntities(post.quoted?.text ?? ''), alt].join('\n').replace(/https?:\/\/\S+/g, ' ')
  const hits: GazetteerHit[] = gazetteer.match(matchText)
  const bucket = (b: string) => uniqCi(hits.filter((h) => h.entry.bucket === b).map((h) => h.entry.name))
  const tools = bucket('tools')
  const products = bucket('products')
  const companies = bucket('companies')
  // A code host named by a repo link counts as mentioned.
  for (const r of repos) if (r.host === 'github' || r.host === 'gitlab') companies.push(r.host === 'github' ? 'GitHub' : 'GitLab')

  const known = new Set([...tools, ...products, ...companies].map((s) => s.toLowerCase()))
  const knownWords = new Set(hits.flatMap((h) => h.surface.toLowerCase().split(' ')))
  const names = compromiseNames(cleanText(text, { keepHandles: false }).replace(/#[\p{L}\p{N}_]+/gu, ' '), knownWords, deps.vectors ?? loadWordVectors())
  const notKnown = (xs: string[]) => uniqCi(xs.filter((x) => !known.has(x.toLowerCase())))

  return {
    hashtags: uniqCi(hashtags),
    mentions: uniqCi(mentions),
    urls,
    domains,
    tools,
    products,
    companies: uniqCi(companies),
    people: notKnown(names.people),
    places: notKnown(names.places),
    organisations: notKnown(names.organisations),
    repos,
    kind: postKind(post),
    topics: uniqCi(hits.flatMap((h) => h.entry.topics)),
    concepts: uniqCi(hits.filter((h) => h.entry.bucket === 'none').map((h) => h.entry.name)),
  }
}
