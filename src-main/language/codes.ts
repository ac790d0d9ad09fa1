/**
 * Language codes as Sheaf stores them: ISO 639-1 (two lower-case letters) or null. X writes its own
 * codes into exports: mostly ISO 639-1, sometimes with a region (`en-gb`, `zh-cn`), old ISO codes
 * (`in` Indonesian, `iw` Hebrew, `ji` Yiddish, `jw` Javanese), `fil` for Filipino, `und` when it could
 * not tell, and private codes for posts with no language of their own (below). Migration 0009 does the
 * same normalisation in SQL for posts stored before it.
 */

/** X's codes for posts with no linguistic content: media, hashtags, mentions, links or cashtags only. */
export const NO_LANGUAGE_CODES: ReadonlySet<string> = new Set(['zxx', 'qme', 'qam', 'qht', 'qct', 'qst', 'art'])

const OLD_CODES: Record<string, string> = { in: 'id', iw: 'he', ji: 'yi', jw: 'jv' }
const THREE_LETTER: Record<string, string> = { fil: 'tl' }

let names: Intl.DisplayNames | null = null
/** Whether ICU knows the two-letter code as a language (`xx` is not one). */
const known = (code: string): boolean => {
  names ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })
  try {
    return names.of(code) !== undefined
  } catch {
    return false
  }
}

const seen = new Map<string, string | null>()

/** ISO 639-1 for an export's code, or null when it names no language Sheaf can use. */
export function normalizeLangCode(code: string | null | undefined): string | null {
  if (!code) return null
  let hit = seen.get(code)
  if (hit === undefined) {
    hit = normalize(code)
    // an export holds a few dozen codes at most; the cap only guards against a hostile file
    if (seen.size < 1000) seen.set(code, hit)
  }
  return hit
}

function normalize(code: string): string | null {
  const c = code.trim().toLowerCase()
  if (THREE_LETTER[c]) return THREE_LETTER[c]
  const m = /^([a-z]{2})(?:[-_].*)?$/.exec(c)
  if (!m) return null
  const two = OLD_CODES[m[1]] ?? m[1]
  return known(two) ? two : null
}

/** X said the post has no language of its own: nothing to detect. */
export const saysNoLanguage = (code: string | null | undefined): boolean => !!code && NO_LANGUAGE_CODES.has(code.trim().toLowerCase())

/** The rule for the `lang` query parameter and `lang:` in search. */
export const LANG_CODE_RE = /^[a-z]{2}$/
