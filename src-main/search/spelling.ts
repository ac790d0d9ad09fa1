import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Spelling fallback for words no post contains and no dictionary knows: the closest indexed term (a porter stem from the
 * FTS vocabulary) within one or two edits, ties going to the term more posts hold.
 */

export interface Speller {
  /** The stem to search instead of `word`, or null when nothing is close enough. */
  correct(word: string): string | null
}

/** Endings a stem may leave off ("compress" for "compression"); any other unmatched tail counts as edits. */
const SUFFIX = /^(?:|s|e|es|ed|ing|ings|ion|ions|ation|ations|er|ers|ly|y|ies|ment|ments|ness|al|ally|ity|ive)$/

/**
 * Edit distance (with transpositions) between `stem` and the best prefix of `word` whose left-off
 * tail is an ordinary ending: a stem is a prefix of the words it came from.
 */
export function prefixDistance(word: string, stem: string, max: number): number {
  const n = word.length
  const m = stem.length
  if (m < 3 || m > n + max) return max + 1
  let prev2 = new Array<number>(m + 1).fill(0)
  let prev = Array.from({ length: m + 1 }, (_, j) => j)
  let best = max + 1
  for (let i = 1; i <= n; i++) {
    const cur = new Array<number>(m + 1)
    cur[0] = i
    let rowMin = cur[0]
    for (let j = 1; j <= m; j++) {
      const cost = word[i - 1] === stem[j - 1] ? 0 : 1
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
      if (i > 1 && j > 1 && word[i - 1] === stem[j - 2] && word[i - 2] === stem[j - 1]) v = Math.min(v, prev2[j - 2] + 1)
      cur[j] = v
      rowMin = Math.min(rowMin, v)
    }
    // Only prefixes that cover most of the word count, so "cat" cannot stand in for "catastrophe".
    if (i >= m - max && SUFFIX.test(word.slice(i))) best = Math.min(best, cur[m])
    if (rowMin > max) break
    prev2 = prev
    prev = cur
  }
  return best
}

export function createSpeller(vocabulary: Iterable<{ term: string; doc: number }>): Speller {
  const byFirst = new Map<string, Array<{ term: string; doc: number }>>()
  for (const v of vocabulary) {
    if (v.term.length < 3 || /^\d+$/.test(v.term)) continue
    const k = v.term[0]
    let list = byFirst.get(k)
    if (!list) byFirst.set(k, (list = []))
    list.push(v)
  }
  const memo = new Map<string, string | null>()
  return {
    correct(word) {
      const w = word.toLowerCase()
      if (memo.has(w)) return memo.get(w)!
      const hit = closest(w)
      if (memo.size > 5000) memo.clear()
      memo.set(w, hit)
      return hit
    },
  }

  function closest(w: string): string | null {
    {
      if (w.length < 4) return null
      const max = w.length <= 7 ? 1 : 2
      let best: { term: string; doc: number; d: number } | null = null
      // Typos rarely hit the first letter; checking the first two keeps a swap of them findable.
      for (const first of new Set([w[0], w[1]])) {
        for (const v of byFirst.get(first) ?? []) {
          if (Math.abs(v.term.length - w.length) > max + 3) continue
          const d = prefixDistance(w, v.term, max)
          if (d > max) continue
          if (!best || d < best.d || (d === best.d && v.doc > best.doc)) best = { ...v, d }
        }
      }
      return best?.term ?? null
    }
  }
}

/**
 * English words the spelling fallback must never replace: the 50,000 commonest words of the offline
 * word vectors (resources/word-vectors.bin, read for its word list only). A word found here, or in
 * the library, is searched as typed even when no post contains it ("funny" is not read as "function").
 */
export interface Dictionary {
  has(word: string): boolean
}

const DEFAULT_WORD_LIST = join(import.meta.dirname, '..', '..', 'resources', 'word-vectors.bin')
let shared: Dictionary | null = null

export function loadDictionary(file = DEFAULT_WORD_LIST): Dictionary {
  if (file === DEFAULT_WORD_LIST && shared) return shared
  let words: Set<string>
  try {
    const buf = readFileSync(file)
    if (buf.toString('latin1', 0, 8) !== 'SHWV0001') throw new Error('unknown format')
    const vocabBytes = buf.readUInt32LE(16)
    words = new Set(buf.toString('utf8', 20, 20 + vocabBytes).split('\n'))
  } catch {
    // Without the word list every unknown word is treated as a word: nothing is rewritten.
    return { has: () => true }
  }
  const d: Dictionary = {
    has(word) {
      const w = word.toLowerCase()
      if (words.has(w)) return true
      // Inflections the list may lack ("spies" from "spy", "geocoded" from "geocode").
      for (const [end, put] of INFLECTIONS) if (w.endsWith(end) && words.has(w.slice(0, -end.length) + put)) return true
      return false
    },
  }
  if (file === DEFAULT_WORD_LIST) shared = d
  return d
}

const INFLECTIONS: Array<[string, string]> = [
  ['ies', 'y'], ['es', ''], ['s', ''], ['ed', ''], ['ed', 'e'], ['ing', ''], ['ing', 'e'], ['ly', ''], ['er', ''], ['est', ''],
]
