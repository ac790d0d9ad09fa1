import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import { cleanText, decodeEntities, EMOJI_RE, splitSentences, simpleWords, STOPWORDS } from './text.ts'
import { dot } from './word-vectors.ts'

/**
 * The summary of a post (docs/understanding.md#summary). A summary says something the post's own
 * words do not already say at a glance:
 *
 * - a short post (its words, without links and reply handles, fit in SHORT_POST characters, or it is
 *   one sentence) is read whole; repeating it would be noise, so the summary describes only what the
 *   post carries beyond its words: the text of its picture (alt text or OCR), the post it quotes, the
 *   page it links to, or a bare "2 photos" / "Video (0:45)" when it has no words at all. With none of
 *   these it is empty, and the UI shows no summary line;
 * - a longer post (notes, threads, posts quoting or linking an article) gets its gist: the one or two
 *   sentences closest in meaning to the whole (the centroid of its sentences' vectors, from the
 *   sentence encoder; without vectors, the most informative sentence near the start), in the post's
 *   order, within MAX_SUMMARY characters, never cut inside a word and never ending on a dash.
 */
export const MAX_SUMMARY = 200
/** Posts whose own words are at most this long are read whole: they get no extract. */
export const SHORT_POST = 200
/** Posts whose own words are longer than this (or threads, or articles) get their gist by meaning. */
export const LONG_POST = 600
/**
 * Characters of a post's sentences the encoder reads for its gist (the first sentences, at least two):
 * a little more than it reads of an ordinary post, so a long note costs the encoder ~1.5 posts, not 10.
 * At 1,000, long notes (a tenth of posts) took over a third of the encoder's work; search relevance
 * and topics read the same at 500 (docs/understanding.md).
 */
export const GIST_CHARS = 500

/** How many of the first sentences are read for the gist. */
const gistCount = (sentences: readonly string[]): number => {
  let n = 0
  let chars = 0
  while (n < sentences.length && (n < 2 || chars + sentences[n].length <= GIST_CHARS)) chars += sentences[n++].length
  return n
}
/** A gist longer than this share of the post's own words is not a summary of it. */
const MAX_SHARE = 0.5

type PostLike = Pick<NormalizedPost, 'text' | 'authorHandle' | 'media' | 'urls'> & Partial<Pick<NormalizedPost, 'quoted'>>
export type SummarizeOptions = {
  ocrText?: string | null
  /** Unit vectors of `gistSentences(post)`, in order, when the caller has the sentence encoder. */
  sentenceVectors?: readonly Float32Array[] | null
  /** The post reads as a thread (entities.kind === 'thread'). */
  thread?: boolean
}

const tidy = (s: string): string =>
  s
    .replace(EMOJI_RE, ' ')
    // leftovers of emoji sequences: variation selectors, joiners, keycaps, skin tones, flag letters
    .replace(/\uFE0F|\u200D|\u20E3|[\u{1F3FB}-\u{1F3FF}]|[\u{1F1E6}-\u{1F1FF}]/gu, '')
    // trailing hashtag runs and arrows ("Read more ⤵️ #Chirp") are noise in a summary
    .replace(/(?:\s*#[\p{L}\p{N}_]+)+\s*$/u, '')
    .replace(/[👇⬇⤵➡→]+/gu, ' ')
    .replace(/^[\s•\-–—:>|*·]+/, '')
    // a sentence that ended at a link ("Flexbox isn't slow - https://…") keeps no dangling dash or colon
    .replace(/[\s\-–—:|/(]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()

/** At most `max` characters, cut at a clause or word boundary (never inside a word), marked with "…". */
export const truncate = (s: string, max = MAX_SUMMARY): string => {
  if (s.length <= max) return s
  const cut = s.slice(0, max - 1)
  const clause = Math.max(cut.lastIndexOf(', '), cut.lastIndexOf('; '), cut.lastIndexOf(': '), cut.lastIndexOf(' - '), cut.lastIndexOf(' — '))
  const space = cut.lastIndexOf(' ')
  const end = clause > max * 0.6 ? clause : space > max * 0.4 ? space : -1
  // One word longer than the whole budget (a URL-like token): cut it, the only case without a boundary.
  const head = end > 0 ? cut.slice(0, end) : cut
  return `${head.replace(/[\s,;:.\-–—(/]+$/, '')}…`
}

const informative = (s: string): number => simpleWords(s).filter((w) => w.length > 2 && !STOPWORDS.has(w)).length

/** The post's own words: links gone, leading reply handles gone, emoji and trailing hashtags gone. */
export const ownWords = (text: string): string => tidy(cleanText(text))

/** The post's sentences for a gist (links end sentences), each tidied; none when the post is read whole. */
export const postSentences = (text: string): string[] => {
  const out = splitSentences(decodeEntities(text).replace(/^(\s*@\w{1,15})+\s*/, '').replace(/\s*https?:\/\/\S+\s*/g, '\n'))
    .map((s) => tidy(cleanText(s)))
    .filter((s) => informative(s) > 0)
  // An export that cut a long post (X's archive does, with "…") leaves its last sentence unfinished.
  if (out.length > 1 && /…$/.test(out[out.length - 1]) && /…\s*(https?:\/\/\S+\s*)*$/.test(text)) out.pop()
  return out
}

const ARTICLE_LINK = /^https?:\/\/(www\.)?(x|twitter)\.com\/i\/article\//

/** Whether a post gets a gist chosen by meaning (and so needs its sentences encoded). */
export const wantsGist = (post: PostLike, opts: Pick<SummarizeOptions, 'thread'> = {}): boolean => {
  const own = ownWords(post.text)
  if (own.length <= SHORT_POST) return false
  return own.length > LONG_POST || opts.thread === true || post.urls.some((u) => ARTICLE_LINK.test(u.expandedUrl))
}

/** The sentences the encoder should read for this post's gist: empty unless `wantsGist`. */
export const gistSentences = (post: PostLike, opts: Pick<SummarizeOptions, 'thread'> = {}): string[] =>
  wantsGist(post, opts) ? ((s) => s.slice(0, gistCount(s)))(postSentences(post.text)) : []

const domainOf = (u: string): string | null => {
  try {
    return new URL(u).hostname.replace(/^www\./, '')
  } catch {
    return null
  }
}

/**
 * Where a link goes, readable: "github.com/stas00/ml-engineering", "morling.dev: whats in a good error
 * message" (the page's slug is usually its title), or the site alone; never a cut path.
 */
const linkLabel = (u: string): string | null => {
  try {
    const url = new URL(u)
    const host = url.hostname.replace(/^www\./, '')
    if (host === 't.co') return null
    if (VIDEO_HOSTS.test(host)) return `a video on ${host}`
    const parts = decodeURIComponent(url.pathname).split('/').filter(Boolean)
    if (/^(github\.com|gitlab\.com|codeberg\.org)$/.test(host) && parts.length >= 2) return `${host}/${parts[0]}/${parts[1]}`
    const slug = [...parts].reverse().find((p) => /\p{L}{2}.*[-_].*\p{L}{2}/u.test(p))
    if (slug) {
      const words = slug.replace(/\.[a-z]{2,5}$/i, '').split(/[-_]+/).filter((w) => w && !looksLikeId(w)).join(' ')
      if (words.length >= 8 && words.length <= 90 && /\p{L}{3}/u.test(words)) return `${host}: ${words}`
    }
    const named = parts.findIndex(looksLikeId)
    const path = (named < 0 ? parts : parts.slice(0, named)).join('/')
    return path && host.length + path.length < 60 ? `${host}/${path}` : host
  } catch {
    return null
  }
}

const VIDEO_HOSTS = /(^|\.)(youtube\.com|youtu\.be|vimeo\.com|twitch\.tv|loom\.com|tiktok\.com)$/

/**
 * A path word that is an identifier, not a word: "sM7YXL0", "ConboPdptVl", "5ce9", "1234567". A name
 * with a number at its end ("v100", "chapter5") or a year is a word.
 */
const looksLikeId = (w: string): boolean =>
  (/^[0-9a-f]{4,}$/i.test(w) && /\d/.test(w) && /[a-f]/i.test(w)) || /\d\D+\d|\D\d+\D/u.test(w) || /\p{Ll}\p{Lu}.*\p{Ll}\p{Lu}|\p{Lu}{2,}\p{Ll}+\p{Lu}/u.test(w) || /^\d{5,}$/.test(w)

const clock = (ms: number): string => {
  const s = Math.round(ms / 1000)
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/** "2 photos", "Video (0:45)", "GIF": what a post without words carries. */
const mediaLabel = (media: PostLike['media']): string => {
  const photos = media.filter((m) => m.type === 'photo').length
  const video = media.find((m) => m.type === 'video')
  if (video) return video.durationMs ? `Video (${clock(video.durationMs)})` : 'Video'
  if (photos > 1) return `${photos} photos`
  if (photos === 1) return 'Photo'
  return media.length ? 'GIF' : ''
}

/** First sentence(s) of a text within the budget, never cut mid-word. */
const lead = (text: string, max: number): string => {
  const sentences = splitSentences(text).map(tidy).filter(Boolean)
  let out = ''
  for (const s of sentences) {
    const next = out ? `${out} ${s}` : s
    if (next.length > max) break
    out = next
  }
  return out || truncate(tidy(text), max)
}

/** What a short post carries beyond its own words; '' when its words are all there is. */
const describeShort = (post: PostLike, own: string, opts: SummarizeOptions): string => {
  const lower = own.toLowerCase()
  const fresh = (s: string) => s && !lower.includes(s.toLowerCase().slice(0, 40))
  const picture = tidy(post.media.map((m) => m.altText ?? '').filter(Boolean).join('. ')) || tidy((opts.ocrText ?? '').replace(/\s+/g, ' '))
  if (picture && informative(picture) >= 2 && fresh(picture)) {
    const what = post.media[0]?.type === 'video' ? 'Video' : 'Image'
    return truncate(`${what}: ${lead(picture, MAX_SUMMARY - what.length - 2)}`)
  }
  const quoted = post.quoted ? tidy(cleanText(post.quoted.text ?? '')) : ''
  if (quoted && informative(quoted) >= 2 && fresh(quoted)) {
    const by = post.quoted?.authorHandle ? ` @${post.quoted.authorHandle}` : ''
    return truncate(`Quotes${by}: ${lead(quoted, MAX_SUMMARY - by.length - 8)}`)
  }
  const link = post.urls.map((u) => ({ u: u.expandedUrl, label: linkLabel(u.expandedUrl) })).find((l) => l.label && !/^(x|twitter)\.com(\/|$)/.test(l.label))
  if (link?.label && !lower.includes(domainOf(link.u) ?? link.label)) return `Link to ${link.label}`
  if (!own) return mediaLabel(post.media)
  return ''
}

/** Sentence score without vectors: content, a preference for the opening, and a length near one line. */
const heuristic = (s: string, i: number): number => {
  const len = s.length
  const lengthFit = len < 25 ? 0.3 : len <= 180 ? 1 : 0.7
  const question = s.endsWith('?') ? 0.85 : 1
  return (Math.min(informative(s), 14) + (i === 0 ? 4 : i === 1 ? 1.5 : 0)) * lengthFit * question
}

/** Centrality of each sentence: cosine to the centroid of all of them, with a slight lean to the opening. */
const central = (vectors: readonly Float32Array[], sentences: string[]): number[] => {
  const c = new Float32Array(vectors[0].length)
  for (const v of vectors) for (let j = 0; j < c.length; j++) c[j] += v[j]
  const n = Math.sqrt(dot(c, c)) || 1
  return vectors.map((v, i) => (dot(v, c) / n) * (sentences[i].length < 25 ? 0.6 : 1) + (i === 0 ? 0.05 : 0))
}

/** A sentence that ended at a link has no full stop; two joined need one between them. */
const stop = (s: string) => (/[.!?…:;]$/u.test(s) ? s : `${s}.`)

/** One or two sentences, the best first by score, shown in the post's order, within the budget. */
const gist = (sentences: string[], scores: number[]): string => {
  const order = scores.map((s, i) => [s, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]).map(([, i]) => i)
  const first = order[0]
  let out = truncate(sentences[first])
  if (out.length < 110) {
    // Only a sentence that starts as one (not the rest of a line a link cut): joined, two must read as prose.
    const second = order.slice(1).find((i) => sentences[i].length + out.length + 1 <= MAX_SUMMARY && !/^\p{Ll}/u.test(sentences[i]))
    if (second !== undefined) out = second < first ? `${stop(sentences[second])} ${out}` : `${stop(out)} ${sentences[second]}`
  }
  return out
}

/** The post's summary (<= MAX_SUMMARY characters, possibly empty): see the rules at the top of this file. */
export const summarize = (post: PostLike, opts: SummarizeOptions = {}): string => {
  const own = ownWords(post.text)
  const sentences = postSentences(post.text)
  if (own.length <= SHORT_POST || sentences.length < 2) return describeShort(post, own, opts)
  const vectors = opts.sentenceVectors
  const n = gistCount(sentences)
  const out = vectors && vectors.length === n && n > 0 && wantsGist(post, opts)
    ? gist(sentences.slice(0, n), central(vectors, sentences))
    : gist(sentences, sentences.map(heuristic))
  // An extract nearly as long as the post is the post again: describe it instead.
  return out.length <= MAX_SHARE * own.length ? out : describeShort(post, own, opts)
}
