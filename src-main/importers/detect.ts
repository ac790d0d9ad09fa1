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
