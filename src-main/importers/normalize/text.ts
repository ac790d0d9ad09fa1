/** X escapes these three in legacy text (and only these); &amp; last so "&amp;lt;" stays "&lt;". */
export const decodeEntities = (s: string): string =>
  s.includes('&') ? s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&') : s

/**
 * X appends a t.co link to the attached media (and, for long posts, a "show more" link) at the end
 * of the text; the post's author never typed it. Strip those trailing links, keep everything else.
 */
export function stripTrailingLinks(text: string, links: Iterable<string>): string {
  const set = new Set([...links].filter(Boolean))
  if (set.size === 0) return text
  let out = text.trimEnd()
  for (;;) {
    const link = trailingTco(out)
    if (link === null || !set.has(link)) return out
    out = out.slice(0, out.length - link.length).trimEnd()
  }
}

const TCO = 'https://t.co/'
const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

/**
 * The `https://t.co/<letters and digits>` link that ends `s`, or null: what
 * `/(https:\/\/t\.co\/[A-Za-z0-9]+)$/` finds, without the regex trying every position of a long text.
 */
function trailingTco(s: string): string | null {
  const at = s.lastIndexOf(TCO)
  if (at < 0 || at + TCO.length === s.length) return null
  for (let i = at + TCO.length; i < s.length; i++) if (!isAlnum(s.charCodeAt(i))) return null
  return s.slice(at)
}

/** "RT @handle: text…" as written in a retweet row. */
export function parseRetweetText(text: string): { handle: string; text: string } | null {
  const m = /^RT @([A-Za-z0-9_]{1,15}): ([\s\S]*)$/.exec(text)
  return m ? { handle: m[1], text: m[2] } : null
}

/** Without entity data: a post with media ends in the media's t.co link (X puts it last). */
export const stripMediaLink = (text: string, hasMedia: boolean): string =>
  hasMedia ? text.replace(/\s*https:\/\/t\.co\/[A-Za-z0-9]+\s*$/, '') : text
