import type { ImportFormat } from '../../src-shared/schemas/posts.ts'
import { archiveKind } from './formats/x-archive.ts'

export const FORMAT_DESCRIPTIONS: Record<ImportFormat, string> = {
  'x-graphql': 'raw X GraphQL responses (Bookmarks, Likes, UserTweets, SearchTimeline, TweetDetail…), one page or an array of pages',
  'x-archive': 'a file of the X data archive (tweets.js, like.js)',
  'x-archive-zip': 'the X data archive .zip',
  siftly: 'the Siftly bookmarklet/console export',
  'twitter-web-exporter-json': 'twitter-web-exporter JSON',
  'twitter-web-exporter-csv': 'twitter-web-exporter CSV',
  twillot: 'Twillot JSON',
  'flat-fetch': 'flat "fetch"-style JSON ({count, bookmarks: [{id, author, handle, text…}]})',
  'twitter-v1': 'classic v1.1 tweet arrays (id_str, full_text, entities)',
  sheaf: "Sheaf's own export",
}

export const acceptedFormatsText = () => Object.values(FORMAT_DESCRIPTIONS).join('; ')

/** The readable kinds in one breath, for refusals; the full list goes in the error's details (a help list). */
export const READS_TEXT = 'Sheaf reads X archives (the .zip, or its tweets.js or like.js), X bookmark captures (GraphQL responses), and exports from twitter-web-exporter, Twillot, Siftly and Sheaf itself'

/**
 * Why text that is no known export is not one, in plain words: invalid JSON placed by line and
 * column (when the whole file was seen), JSON of another shape with its first fields named, or text
 * that is neither JSON nor an export's CSV.
 */
export function whyNotAnExport(head: string, complete: boolean): { reason: string; details: Record<string, unknown> } {
  const text = head.replace(/^\uFEFF/, '')
  const first = text.trimStart()[0]
  if (first === '{' || first === '[') {
    if (complete) {
      const bad = jsonErrorAt(text)
      if (bad) {
        const before = text.slice(0, bad.at)
        const line = before.split('\n').length
        const column = bad.at - before.lastIndexOf('\n')
        return { reason: `not valid JSON at line ${line}, column ${column}${bad.ends ? ' (the file ends too early)' : ''}`, details: { line, column } }
      }
    }
    const fields = [...new Set([...text.slice(0, 4096).matchAll(/"([^"\\]{1,40})"\s*:/g)].map((m) => m[1]))].slice(0, 5)
    return { reason: `JSON, but not an export Sheaf knows${fields.length ? ` (its first fields: ${fields.join(', ')})` : ''}. ${READS_TEXT}`, details: { fields } }
  }
  return { reason: `not an export: neither JSON nor an export's CSV. ${READS_TEXT}`, details: {} }
}

const has = (head: string, key: string) => new RegExp(`"${key}"\\s*:`).test(head)

/** Recognise an export from its first bytes (64 KB is plenty); the file name is never consulted. */
export function detectFormat(headIn: string | Uint8Array): ImportFormat | null {
  if (typeof headIn !== 'string' && headIn[0] === 0x50 && headIn[1] === 0x4b && headIn[2] === 0x03 && headIn[3] === 0x04) {
    return 'x-archive-zip'
  }
  const head = (typeof headIn === 'string' ? headIn : new TextDecoder().decode(headIn)).replace(/^\uFEFF/, '').trimStart()
  const kind = archiveKind(head)
  if (kind) return kind === 'tweets' || kind === 'like' || kind === 'note_tweet' ? 'x-archive' : null
  const first = head[0]
  if (first !== '{' && first !== '[') return looksLikeTweCsv(head) ? 'twitter-web-exporter-csv' : null

  if (/^\{\s*"format"\s*:\s*"sheaf-export"/.test(head) || /"format"\s*:\s*"sheaf-export"/.test(head.slice(0, 4096))) return 'sheaf'
  // GraphQL: {"data": {...instructions/tweet_results...}} or an array of such pages.
  if (/^\[?\s*\{\s*"(data|errors)"\s*:/.test(head) && /"(instructions|tweet_results|tweetResult|rest_id)"\s*:/.test(head)) return 'x-graphql'
  // Archive rows with the assignment prefix already removed.
  if (/^\[\s*\{\s*"(tweet|like)"\s*:\s*\{/.test(head)) return 'x-archive'
  if (has(head, 'bookmarks')) {
    if (has(head, 'timestamp') && has(head, 'handle')) return 'siftly'
    if (has(head, 'handle') || has(head, 'author') || has(head, 'count')) return 'flat-fetch'
  }
  if (first === '[') {
    if (has(head, 'tweet_id') && has(head, 'screen_name')) return 'twillot'
    if (has(head, 'full_text') && has(head, 'screen_name') && !has(head, 'id_str') && (has(head, 'views_count') || has(head, 'media_tags'))) {
      return 'twitter-web-exporter-json'
    }
    if (has(head, 'id_str') && (has(head, 'full_text') || has(head, 'text'))) return 'twitter-v1'
    if (has(head, 'timestamp') && has(head, 'handle')) return 'siftly'
  }
  return null
}

function looksLikeTweCsv(head: string): boolean {
  const line = head.slice(0, head.search(/\r?\n/) >>> 0).toLowerCase()
  return /(^|,)"?id"?,/.test(line) && line.includes('full_text') && line.includes('screen_name')
}

/** Where JSON.parse fails, as a character offset (`ends`: the text stops before the JSON is complete); null when it parses. */
export function jsonErrorAt(text: string): { at: number; ends: boolean } | null {
  const failure = (t: string): { at: number | null; end: boolean } | null => {
    try {
      JSON.parse(t)
      return null
    } catch (e) {
      const msg = (e as Error).message
      const pos = /position (\d+)/.exec(msg)
      const at = pos ? Number(pos[1]) : null
      return { at, end: /end of JSON/i.test(msg) || (at !== null && at >= t.length) }
    }
  }
  const whole = failure(text)
  if (!whole) return null
  if (whole.end) return { at: text.length, ends: true }
  if (whole.at !== null) return { at: whole.at, ends: false }
  // V8 names no position for some errors ("Unexpected token '}'"): the shortest prefix that fails
  // other than by ending early ends just after the bad character (being bad is kept by longer prefixes).
  let lo = 1
  let hi = text.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    const f = failure(text.slice(0, mid))
    if (f && !f.end) hi = mid
    else lo = mid + 1
  }
  return { at: lo - 1, ends: false }
}
