/**
 * Duplicate keys: what two saved posts must share to be shown as copies of each other. Pure
 * functions over a post's own fields, so the importer (on its parse worker), the background fill for
 * libraries imported before keys existed, and the tests all compute the same keys.
 *
 * - link:  the same outbound link, normalised (see normalizeLink)
 * - quote: the same quoted post (its post id)
 * - text:  the same words (see textKey): copies, retweets written as "RT @a: …"
 * Near-identical meaning is not a key: it comes from the sentence vectors (pipeline stage 4).
 */

export type KeyKind = 'link' | 'quote' | 'text'
export interface PostKey { kind: KeyKind; key: string }

/** A text shorter than this (after normalising) says too little to call two posts copies ("so true", "wow this is great"). */
export const MIN_TEXT_WORDS = 5
/**
 * The text key is the first this many words: a retweet's "RT @a: …" form is cut at 140 characters
 * (about 20 words), so a longer key would miss it against its original.
 */
export const TEXT_KEY_WORDS = 12
/** The same for scripts written without spaces (Chinese, Japanese, Korean, Thai): characters, not words. */
export const MIN_TEXT_CHARS_UNSPACED = 15
export const TEXT_KEY_CHARS_UNSPACED = 40
const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u

/** Query parameters that say who shared a link, not what it points to. */
const TRACKING = new Set([
  'fbclid', 'gclid', 'dclid', 'msclkid', 'igshid', 'igsh', 'mc_cid', 'mc_eid', 'ref', 'ref_src', 'ref_url', 'source', 'si',
  'feature', 'share', 'smid', 'cmpid', 'spm', 'trk', '_hsenc', '_hsmi', 'mkt_tok', 'yclid', 'twclid', 'wt_mc', 'sr_share',
])
/** On X's own links `s` and `t` are share-sheet markers. */
const X_TRACKING = new Set(['s', 't'])
const X_HOSTS = new Set(['x.com', 'twitter.com', 'mobile.twitter.com', 'mobile.x.com'])

/**
 * The comparable form of a link: host lower-case without `www.`, no scheme, no fragment, no tracking
 * parameters (utm_*, fbclid, …; the rest sorted), no trailing slash. Null when the link says nothing
 * on its own: unparseable, not http(s), a bare t.co short link, a site's front page, or a link to the
 * post itself (X adds one for attached media and long posts). Links to other posts on X become
 * `x.com/status/ID` whatever handle or host they were written with.
 */
export function normalizeLink(raw: string, ownPostId?: string): string | null {
  let u: URL
  try {
    u = new URL(raw.trim())
  } catch {
    return null
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null
  let host = u.hostname.toLowerCase().replace(/\.$/, '')
  if (host.startsWith('www.')) host = host.slice(4)
  if (host === 't.co') return null
  if (X_HOSTS.has(host)) {
    const m = /^\/(?:[^/]+|i\/web|i)\/status(?:es)?\/(\d+)/.exec(u.pathname)
    if (m) return m[1] === ownPostId ? null : `x.com/status/${m[1]}`
    host = 'x.com'
  }
  const params = [...u.searchParams]
    .filter(([k]) => {
      const key = k.toLowerCase()
      return !key.startsWith('utm_') && !TRACKING.has(key) && !(host === 'x.com' && X_TRACKING.has(key))
    })
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
  let path = u.pathname.replace(/\/+$/, '')
  try {
    path = decodeURI(path)
  } catch {
    // keep it encoded
  }
  if (path === '' && params.length === 0) return null
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : ''
  return `${host}${path}${query}`
}

/**
 * The words of a post as compared for copies: "RT @handle:" and the mentions a reply starts with
 * removed, links removed, lower-case, letters and digits only (punctuation, emoji and the "…" of a
 * cut-off retweet go), single spaces.
 */
export function normalizeText(text: string, maxChars = Infinity): string {
  // Plain ASCII (most posts) needs no Unicode normalisation, the costliest step.
  let s = NON_ASCII.test(text) ? text.normalize('NFKC') : text
  if (s.includes('&')) s = s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')
  s = s.replace(/^\s*RT\s+@\w{1,15}\s*:\s*/i, '')
  s = s.replace(/^(\s*[@＠]\w{1,15}[\s,]*)+/, '')
  if (s.length > maxChars) s = s.slice(0, maxChars)
  s = s.replace(/\b(?:https?:\/\/|www\.)\S+/gi, ' ')
  if (!NON_ASCII.test(s)) return asciiWords(s)
  return s.toLowerCase().replace(/['’]/g, '').replace(NOT_WORD, ' ').trim()
}

/** normalizeText's last step for ASCII text, without regular expressions (most posts; ~5x faster). */
function asciiWords(s: string): string {
  let out = ''
  let pending = false
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i)
    if (c === 39) continue // an apostrophe joins: "it's" -> "its"
    const upper = c >= 65 && c <= 90
    if (upper) c += 32
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (pending && out.length > 0) out += ' '
      pending = false
      out += String.fromCharCode(c)
    } else {
      pending = true
    }
  }
  return out
}

const NON_ASCII = /[^\x00-\x7f]/
const NOT_WORD = /[^\p{L}\p{N}]+/gu
/** Enough of a text for its first TEXT_KEY_WORDS words, links included: the key never reads further. */
const KEY_CHARS = 600

/** The text key: the first TEXT_KEY_WORDS normalised words, or null below MIN_TEXT_WORDS. */
export function textKey(text: string): string | null {
  const norm = normalizeText(text, KEY_CHARS)
  if (norm === '') return null
  // Chinese, Japanese, Korean and Thai are written without spaces between words: count characters.
  if (NO_SPACES.test(norm)) {
    const chars = norm.replace(/ /g, '')
    return chars.length >= MIN_TEXT_CHARS_UNSPACED ? chars.slice(0, TEXT_KEY_CHARS_UNSPACED) : null
  }
  const words = norm.split(' ', TEXT_KEY_WORDS + 1)
  return words.length >= MIN_TEXT_WORDS ? words.slice(0, TEXT_KEY_WORDS).join(' ') : null
}

export interface KeyedPost {
  postId: string
  text: string
  urls: ReadonlyArray<{ url: string; expandedUrl: string }>
  /** The quoted post's id, if the post quotes one. */
  quotedPostId: string | null
}

/** Every duplicate key of one post, without repeats. */
export function duplicateKeys(p: KeyedPost): PostKey[] {
  const out: PostKey[] = []
  const seen = new Set<string>()
  const add = (kind: KeyKind, key: string | null) => {
    if (key === null || seen.has(`${kind} ${key}`)) return
    seen.add(`${kind} ${key}`)
    out.push({ kind, key })
  }
  for (const u of p.urls) {
    const link = normalizeLink(u.expandedUrl || u.url, p.postId)
    // A link to the quoted post is the quote itself, not a link of its own.
    if (link !== null && p.quotedPostId !== null && link === `x.com/status/${p.quotedPostId}`) continue
    add('link', link)
  }
  if (p.quotedPostId !== null && p.quotedPostId !== p.postId) add('quote', p.quotedPostId)
  add('text', textKey(p.text))
  return out
}

/** Keys from stored column values (urls and quoted as the JSON the bookmarks table holds). */
export function keysOfStored(r: { postId: string; text: string; urls: string; quoted: string | null }): PostKey[] {
  return duplicateKeys({ postId: r.postId, text: r.text, urls: parseUrls(r.urls), quotedPostId: quotedIdOf(r.quoted) })
}

function parseUrls(s: string): Array<{ url: string; expandedUrl: string }> {
  try {
    const v = JSON.parse(s) as unknown
    return Array.isArray(v) ? v.filter((u): u is { url: string; expandedUrl: string } => typeof u?.url === 'string' || typeof u?.expandedUrl === 'string')
      .map((u) => ({ url: String(u.url ?? ''), expandedUrl: String(u.expandedUrl ?? '') })) : []
  } catch {
    return []
  }
}

/** The post id a stored `quoted` (JSON text) names, or null. */
export function quotedIdOf(s: string | null): string | null {
  if (!s) return null
  try {
    const v = JSON.parse(s) as { postId?: unknown } | null
    return typeof v?.postId === 'string' && v.postId !== '' ? v.postId : null
  } catch {
    return null
  }
}
