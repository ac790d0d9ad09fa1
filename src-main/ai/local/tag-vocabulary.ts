import { loadGazetteer, type Gazetteer } from './gazetteer.ts'
import { memoByDir, readResourceJson } from './resources.ts'
import { stem } from './text.ts'

/**
 * Keeps a library's tags from sprouting variants: case, plurals, synonyms (js -> javascript),
 * gazetteer aliases (postgres -> postgresql) and near-duplicates (one typo) all map to one canonical tag.
 */
export type TagVocabulary = {
  /** Canonical form of `raw`; a new tag is added to the vocabulary and returned as normalised. */
  normalize(raw: string): string
  /** Canonical form if known, without adding; null when it would be new. */
  lookup(raw: string): string | null
  tags(): string[]
  /** From now on `tag` (and every form that read as it) reads as `into`, an existing tag. */
  merge(tag: string, into: string): void
}

export const loadTagSynonyms = memoByDir((dir) => {
  const j = readResourceJson<{ synonyms: Record<string, string> }>('tag-synonyms.json', dir)
  return new Map(Object.entries(j.synonyms))
})

const cleanTag = (raw: string): string =>
  raw
    .trim()
    .replace(/^#+/, '')
    .replace(/['’]s$/i, '')
    .replace(/[_]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[^\p{L}\p{N}.]+|[^\p{L}\p{N}+#]+$/gu, '')

/**
 * `MachineLearning` -> `machine learning`, `AIAgents` -> `ai agents` (for hashtags); a lone lower-case
 * letter is a prefix, not a word: `iOS`, `eBay`, `iPhone` stay whole.
 */
const splitCamel = (s: string): string => s.replace(/(?<=[\p{L}\d][a-z\d])(?=[A-Z])/gu, ' ').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')

const stemKey = (s: string): string =>
  s
    .split(/[\s-]+/)
    .map((w) => stem(w))
    .join(' ')

/** Levenshtein distance, giving up early past `max`. */
export const editDistance = (a: string, b: string, max = 2): number => {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
      rowMin = Math.min(rowMin, cur[j])
    }
    if (rowMin > max) return max + 1
    prev = cur
  }
  return prev[b.length]
}

export type TagVocabularyDeps = { synonyms?: Map<string, string>; gazetteer?: Gazetteer }

export const createTagVocabulary = (existing: string[] = [], deps: TagVocabularyDeps = {}): TagVocabulary => {
  const synonyms = new Map(deps.synonyms ?? loadTagSynonyms())
  const gazetteer = deps.gazetteer ?? loadGazetteer()
  const byKey = new Map<string, string>()
  const byPrefix = new Map<string, string[]>()

  const aliasOf = (lower: string): string | undefined => {
    const syn = synonyms.get(lower)
    if (syn) return syn
    const hits = gazetteer.match(lower)
    if (hits.length === 1 && hits[0].surface.toLowerCase() === lower && hits[0].entry.bucket !== 'none') return hits[0].entry.name.toLowerCase()
    return undefined
  }

  const knownNames = new Set(gazetteer.entries.map((e) => e.name.toLowerCase()))
  const isKnownName = (s: string) => knownNames.has(s) || synonyms.has(s)

  const canonicalSurface = (raw: string): string => {
    const cleaned = cleanTag(raw)
    const lower = cleaned.toLowerCase()
    const direct = aliasOf(lower) ?? aliasOf(lower.replace(/[\s-]+/g, ' '))
    if (direct) return direct
    const split = splitCamel(cleaned).toLowerCase().replace(/-+/g, ' ')
    return aliasOf(split) ?? split
  }

  const near = (surface: string): string | null => {
    // Short words, versions and numbered names differ meaningfully by one letter (model s / model y).
    if (surface.length < 6 || /\d|(^|\s)\S{1,2}(\s|$)/.test(surface)) return null
    const max = surface.length >= 10 ? 2 : 1
    for (const c of byPrefix.get(surface.slice(0, 2)) ?? []) {
      if (editDistance(surface, c, max) <= max) return c
    }
    return null
  }

  const lookup = (raw: string): string | null => {
    const surface = canonicalSurface(raw)
    if (!surface) return null
    return byKey.get(stemKey(surface)) ?? (isKnownName(surface) ? null : near(surface))
  }

  const add = (surface: string) => {
    byKey.set(stemKey(surface), surface)
    const p = surface.slice(0, 2)
    const list = byPrefix.get(p)
    if (list) list.push(surface)
    else byPrefix.set(p, [surface])
  }

  // Once a raw form has a canonical tag it keeps it, so repeated tags skip the matching work.
  const seen = new Map<string, string>()
  const normalize = (raw: string): string => {
    const cached = seen.get(raw)
    if (cached !== undefined) return cached
    let tag = lookup(raw)
    if (!tag) {
      tag = canonicalSurface(raw)
      if (tag) add(tag)
    }
    if (seen.size < 100_000) seen.set(raw, tag)
    return tag
  }

  const merge = (tag: string, into: string) => {
    if (tag === into) return
    for (const [k, v] of byKey) if (v === tag) byKey.set(k, into)
    for (const [k, v] of seen) if (v === tag) seen.set(k, into)
    const list = byPrefix.get(tag.slice(0, 2))
    if (list) byPrefix.set(tag.slice(0, 2), list.filter((t) => t !== tag))
  }

  for (const t of existing) normalize(t)
  return { normalize, lookup, merge, tags: () => [...new Set(byKey.values())] }
}

export const normalizeTag = (raw: string, vocab: TagVocabulary): string => vocab.normalize(raw)
