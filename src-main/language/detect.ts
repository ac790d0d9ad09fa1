import { normalizeLangCode, saysNoLanguage } from './codes.ts'

/**
 * Language identification with eld (Nito-ELD, Apache-2.0), its extra-small n-gram database: measured
 * on the fixtures' 1,441 real posts against franc-min and tinyld, and against eld's larger databases,
 * in docs/language.md. Loaded on first use (~150 ms, ~30 MB of heap), never at start.
 */
export type LanguageDetector = (text: string) => string | null

/** Fewer letters than this (after links, mentions and `#` are stripped) is too little to tell: null. */
export const MIN_LETTERS = 10
/**
 * The detector reads at most this much of a post (cut at a word): on the fixtures' 1,441 posts, 200
 * characters give the same answers as the whole text at ~30% less time (eld's cost grows with length).
 */
export const MAX_CHARS = 200
/** The best language's score must lead the second's by this much (Spanish/Portuguese near-ties): else null. */
export const MIN_MARGIN = 0.01

interface EldResult { language: string; getScores(): Record<string, number>; isReliable(): boolean }
interface Eld { detect(text: string): EldResult }

let loading: Promise<LanguageDetector> | null = null

/** What the detector reads: the words of the post, without links, @mentions, hashtags' `#` and HTML entities. */
export function detectableText(text: string): string {
  return text
    .replace(/\bhttps?:\/\/\S+/gi, ' ')
    .replace(/\b(?:www\.|t\.co\/)\S+/gi, ' ')
    .replace(/(^|[^\p{L}\p{N}_])[@＠][\p{L}\p{N}_]+/gu, '$1 ')
    .replace(/[#＃$](?=[\p{L}\p{N}_])/gu, '')
    .replace(/&(?:amp|lt|gt|quot|apos|#\d+);/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

const letters = (s: string): number => {
  let n = 0
  for (const _ of s.matchAll(/\p{L}/gu)) if (++n >= MIN_LETTERS) break
  return n
}

const cut = (s: string): string => {
  if (s.length <= MAX_CHARS) return s
  const head = s.slice(0, MAX_CHARS)
  const space = head.lastIndexOf(' ')
  return space > MAX_CHARS * 0.7 ? head.slice(0, space) : head
}

function judge(eld: Eld, text: string): string | null {
  // cut before cleaning too: a 25,000-character note post costs no more than a short one
  const clean = cut(detectableText(text.length > MAX_CHARS * 4 ? text.slice(0, MAX_CHARS * 4) : text))
  if (letters(clean) < MIN_LETTERS) return null
  const r = eld.detect(clean)
  if (!r.language || !r.isReliable()) return null
  let best = 0
  let second = 0
  for (const s of Object.values(r.getScores())) {
    if (s > best) [best, second] = [s, best]
    else if (s > second) second = s
  }
  return best - second >= MIN_MARGIN ? normalizeLangCode(r.language) : null
}

/** The detector, loaded once per thread (the import's parse worker has its own). */
export function loadLanguageDetector(): Promise<LanguageDetector> {
  loading ??= import('eld/extrasmall').then((m) => {
    const eld = (m as unknown as { eld: Eld }).eld
    return (text: string) => judge(eld, text)
  })
  return loading
}

/** Whether a post with this export code needs the detector (X gave no usable code, and did not say "no language"). */
export const needsDetection = (code: string | null | undefined): boolean => normalizeLangCode(code) === null && !saysNoLanguage(code)

/**
 * A post's language: X's own code when it names one, null when X says the post has no language of its
 * own, otherwise the detector's answer (null when the text is too short or too close to call).
 */
export function postLanguage(code: string | null | undefined, text: string, detect: LanguageDetector | null): string | null {
  const own = normalizeLangCode(code)
  if (own || saysNoLanguage(code)) return own
  return detect ? detect(text) : null
}
