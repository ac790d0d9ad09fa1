/** FTS5 query strings built from parsed words; every user word is quoted so it can never be an operator. */

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`

/** A word as an FTS5 term: exact, plus prefix for words long enough that a prefix is still specific. */
export function termExpr(word: string): string {
  const w = word.replace(/\*+$/, '')
  if (!w) return ''
  if (word.endsWith('*') || w.length >= 4) return `(${quote(w)} OR ${quote(w)}*)`
  return quote(w)
}

/** Any of the words (BM25 then ranks posts holding more and rarer words higher). */
export const anyOf = (words: readonly string[]): string => words.map(termExpr).filter(Boolean).join(' OR ')

export const phraseExpr = (phrase: string): string => quote(phrase)

/** As-you-type: every word must match, the last one as a prefix; only the text and author columns. */
export function quickExpr(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_]*/gu)
  if (!words || words.length === 0) return null
  const parts = words.slice(0, 8).map((w, i) => (i === words.length - 1 ? `${quote(w)}*` : quote(w)))
  return `{text author} : (${parts.join(' AND ')})`
}
