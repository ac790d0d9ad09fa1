import type { NormalizedPost } from '../../../src-shared/schemas/posts.ts'
import { cleanText, decodeEntities, EMOJI_RE, splitSentences, simpleWords, STOPWORDS } from './text.ts'

export const MAX_SUMMARY = 200

type PostLike = Pick<NormalizedPost, 'text' | 'authorHandle' | 'media' | 'urls'> & Partial<Pick<NormalizedPost, 'quoted'>>
export type SummarizeOptions = { ocrText?: string | null }

const tidy = (s: string): string =>
  s
    .replace(EMOJI_RE, ' ')
    // leftovers of emoji sequences: variation selectors, joiners, keycaps, skin tones, flag letters
    .replace(/\uFE0F|\u200D|\u20E3|[\u{1F3FB}-\u{1F3FF}]|[\u{1F1E6}-\u{1F1FF}]/gu, '')
    // trailing hashtag runs and arrows ("Read more ⤵️ #Chirp") are noise in a summary
    .replace(/(?:\s*#[\p{L}\p{N}_]+)+\s*$/u, '')
    .replace(/[👇⬇⤵➡→]+/gu, ' ')
    .replace(/^[\s•\-–—:>|*]+/, '')
    .replace(/\s+/g, ' ')
    .trim()

export const truncate = (s: string, max = MAX_SUMMARY): string => {
  if (s.length <= max) return s
  const cut = s.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.\-–—]+$/, '')}…`
}

const informative = (s: string): number => simpleWords(s).filter((w) => w.length > 2 && !STOPWORDS.has(w)).length

/** Sentence score: content, a preference for the opening, and a length near one tweet line. */
const score = (s: string, i: number): number => {
  const len = s.length
  const lengthFit = len < 25 ? 0.3 : len <= 180 ? 1 : 0.7
  const question = s.endsWith('?') ? 0.85 : 1
  return (Math.min(informative(s), 14) + (i === 0 ? 4 : i === 1 ? 1.5 : 0)) * lengthFit * question
}

const domainOf = (u: string): string | null => {
  try {
    return new URL(u).hostname.replace(/^www\./, '')
  } catch {
    return null
  }
}

/** One sentence (<= 200 chars): the post's most informative sentence, without links and reply handles. */
export const summarize = (post: PostLike, opts: SummarizeOptions = {}): string => {
  const text = tidy(cleanText(post.text))
  // Links end sentences ("...found at https://t.co/x Check out..."): split there before cleaning them away.
  const sentences = splitSentences(decodeEntities(post.text).replace(/^(\s*@\w{1,15})+\s*/, '').replace(/\s*https?:\/\/\S+\s*/g, '\n'))
    .map((s) => tidy(cleanText(s)))
    .filter((s) => informative(s) > 0)
  if (sentences.length > 0 && informative(text) >= 3) {
    let best = 0
    let bestScore = -1
    sentences.forEach((s, i) => {
      const sc = score(s, i)
      if (sc > bestScore) [best, bestScore] = [i, sc]
    })
    let out = sentences[best]
    // A short opener ("FIRST LOOK:") reads better joined to what follows.
    if (out.length < 40 && sentences[best + 1]) out = `${out} ${sentences[best + 1]}`
    return truncate(out)
  }
  const by = `@${post.authorHandle}`
  const media = post.media[0]
  if (media) {
    const what = media.type === 'photo' ? 'Photo' : media.type === 'video' ? 'Video' : 'GIF'
    const detail = tidy(media.altText ?? '') || tidy(opts.ocrText ?? '') || text
    return truncate(detail ? `${what} by ${by}: ${detail}` : `${what} by ${by}`)
  }
  const link = post.urls.map((u) => domainOf(u.expandedUrl)).find((d) => d && d !== 't.co')
  if (link) return truncate(text ? `Link to ${link} by ${by}: ${text}` : `Link to ${link} shared by ${by}`)
  if (post.quoted) return truncate(`${by} quoting @${post.quoted.authorHandle}: ${tidy(cleanText(post.quoted.text))}`)
  return truncate(text || `Post by ${by}`)
}
