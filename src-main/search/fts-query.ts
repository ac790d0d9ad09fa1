/** FTS5 query strings built from parsed words; every user word is quoted so it can never be an operator. */

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`

/** A word as an FTS5 term (porter stemming merges endings); `word*` asks for a prefix. */
export function termExpr(word: string): string {
  const w = word.replace(/\*+$/, '')
  if (!w) return ''
  return word.endsWith('*') ? `${quote(w)}*` : quote(w)
}

export const phraseExpr = (phrase: string): string => quote(phrase)

/** As-you-type: every word must match, the last one as a prefix; only the text and author columns. */
export function quickExpr(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_]*/gu)
  if (!words || words.length === 0) return null
  // A one-letter prefix would merge thousands of doclists; it matches as a whole word until a second letter comes.
  const parts = words.slice(0, 8).map((w, i) => (i === words.length - 1 && w.length >= 2 ? `${quote(w)}*` : quote(w)))
  return `{text author} : (${parts.join(' AND ')})`
}
