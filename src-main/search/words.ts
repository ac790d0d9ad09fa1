/** Word helpers for explaining matches (kept here: the offline toolkit's text helpers are internal to it). */

/** Plural and -ing/-ed endings stripped, close to what the porter tokenizer merges. */
export function stemWord(w: string): string {
  if (w.length <= 3) return w
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y'
  if (w.endsWith('sses')) return w.slice(0, -2)
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w
  if (w.endsWith('ing') && w.length > 5) return w.slice(0, -3)
  if (w.endsWith('ed') && w.length > 4) return w.slice(0, -2)
  if (/(ch|sh|x|z)es$/.test(w)) return w.slice(0, -2)
  if (w.endsWith('s')) return w.slice(0, -1)
  return w
}

/** Text without links and leading reply handles, whitespace collapsed, common entities decoded. */
export const stripLinks = (text: string): string =>
  text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/https?:\/\/\S+/gi, ' ').replace(/^(\s*@\w{1,15})+\s*/, '').replace(/\s+/g, ' ').trim()
