/** Small text helpers shared by the offline analysers. Pure, allocation-light. */

const URL_RE = /https?:\/\/\S+/gi
const HANDLE_RE = /(^|[^\w])@\w{1,15}/g

export const decodeEntities = (s: string): string =>
  s.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")

/** Text without links, with the leading reply handles removed and whitespace collapsed. */
export const cleanText = (text: string, { keepHandles = true } = {}): string => {
  let s = decodeEntities(text).replace(URL_RE, ' ')
  s = s.replace(/^(\s*@\w{1,15})+\s*/, '')
  if (!keepHandles) s = s.replace(HANDLE_RE, '$1')
  return s.replace(/\s+/g, ' ').trim()
}

/** Word-like tokens in original case; keeps `C++`, `C#`, `Node.js`, `GPT-4o`, `.NET`. */
const WORD_RE = /\.?[\p{L}\p{N}_][\p{L}\p{N}_'’.+#&/-]*/gu

export type RawToken = { text: string; lower: string; start: number; hashtag: boolean }

export const wordTokens = (text: string): RawToken[] => {
  const out: RawToken[] = []
  for (const m of text.matchAll(WORD_RE)) {
    let t = m[0]
    // Trailing punctuation belongs to the sentence, not the word (but keep C++ / C#).
    t = t.replace(/[.'’/&-]+$/, '').replace(/['’]s$/i, '')
    if (!t) continue
    const start = m.index
    out.push({ text: t, lower: t.toLowerCase(), start, hashtag: start > 0 && text[start - 1] === '#' })
  }
  return out
}

/** Lowercase word list for bag-of-words features (splits on slashes and dots inside words too). */
export const simpleWords = (text: string): string[] => {
  const m = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’]*/gu)
  return m ?? []
}

/** A light suffix stripper (Porter-style step 1): good enough to merge plurals and -ing/-ed forms. */
export const stem = (w: string): string => {
  if (w.length <= 3) return w
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y'
  if (w.endsWith('sses')) return w.slice(0, -2)
  if (w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w
  if (w.endsWith('ing') && w.length > 5) return undouble(w.slice(0, -3))
  if (w.endsWith('ed') && w.length > 4) return undouble(w.slice(0, -2))
  if (w.endsWith('es') && /(ch|sh|x|z)es$/.test(w)) return w.slice(0, -2)
  if (w.endsWith('s')) return w.slice(0, -1)
  return w
}
const undouble = (w: string): string => (/([^aeiouls])\1$/.test(w) ? w.slice(0, -1) : w)

/** Sentences, split on terminal punctuation and line breaks. */
export const splitSentences = (text: string): string[] =>
  text
    .split(/(?<=[.!?。！？])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)

export const EMOJI_RE = /\p{Extended_Pictographic}/gu

/** English function words plus words that say nothing about a saved post's topic. */
export const STOPWORDS = new Set(
  (
    'a about above after again against all almost also am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing done down during each even ever every few for from further get gets getting got had has have having he her here hers ' +
    'him his how i if in into is it its itself just know let like lot made make makes many may me might more most much must my need never new no nor ' +
    'not now of off often on once one only or other our ours out over own per please pretty quite rather really right same say says see seems she ' +
    'should since so some still such sure take than that the their theirs them then there these they thing things think this those though through ' +
    'to today too two under until up upon us use used using very via want was way we well were what when where which while who whom why will with ' +
    'without would yeah yes yet you your yours always anyone anything around back best better big day days first go going good great keep last ' +
    'less look looks man maybe next ok okay part people point post put real said see seen show shows someone something soon start stop tell time ' +
    'times took top try tweet tweets thread link year years week weeks month months amp https http www com via don didn doesn isn wasn aren ' +
    'won wouldn shouldn couldn can\'t don\'t i\'m it\'s that\'s you\'re we\'re they\'re i\'ve i\'d i\'ll let\'s here\'s there\'s what\'s'
  ).split(/\s+/),
)
