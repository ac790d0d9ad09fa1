import type { TagVocabulary } from './tag-vocabulary.ts'
import { dot, loadWordVectors, type WordVectors } from './word-vectors.ts'

/**
 * Near-synonym tags merged by meaning: "ml" and "machine learning", "devs" and "developers", "vscode"
 * and "vs code" become one tag. The sentence encoder alone cannot tell synonyms from neighbours (it
 * puts "iran" and "iraq", or "java" and "javascript", closer than "ml" and "machine learning"), so a
 * merge needs both: the spelling shows one tag can be a short form of the other, and the encoder
 * reads the two names as close in meaning. Measured by bench/tag-merge.ts on bench/tag-pairs.ts.
 */
export type Evidence = 'joined' | 'initials' | 'two-initials' | 'clipped'

/**
 * Cosine of the two names' sentence vectors each kind of evidence needs, set on bench/tag-pairs.ts
 * for precision first. Two letters stand for many things ("ml": machine learning, major league), and
 * so does the start of a word ("mongo": mongolia 0.74, "art": artist 0.71): those need more.
 */
export const MERGE_COSINE: Record<Evidence, number> = { joined: 0.4, initials: 0.25, 'two-initials': 0.5, clipped: 0.75 }

/** A word this common that a long tag continues with makes it a compound ("git" + "hub", "java" + "script"), not a short form. */
const COMMON_WORD_RANK = 30_000

const words = (t: string) => t.split(/[\s-]+/).filter(Boolean)
const squash = (t: string) => t.replace(/[\s.-]+/g, '')
/** The encoder reads Latin script only: other scripts all get one vector, so closeness means nothing there. */
const latin = (t: string) => /^[\p{Script=Latin}\d\s.+#&-]+$/u.test(t)
/** Plural -s of a short form: "evs", "repos", "docs". */
const unplural = (t: string) => (t.length > 3 && t.endsWith('s') ? t.slice(0, -1) : t)

/** "nyc" = new york city, "saas" = software as a service (small words may be left out), "evs" = electric vehicles. */
const isInitials = (short: string, long: string): boolean => {
  const w = words(long)
  if (w.length < 2 || words(short).length !== 1) return false
  const all = w.map((x) => x[0]).join('')
  const content = w.filter((x) => x.length > 3).map((x) => x[0]).join('')
  const forms = long.endsWith('s') ? [short, short.replace(/s$/, '')] : [short]
  return forms.some((x) => x.length >= 2 && (x === all || x === content))
}

/** "repo" for "repository", "devs" for "developers"; not "git" for "github" (a compound). */
const isClipped = (short: string, long: string, table: WordVectors): boolean => {
  if (words(short).length !== 1 || words(long).length !== 1) return false
  const s = unplural(short)
  if (s.length < 3 || !long.startsWith(s) || long.length - s.length < 2) return false
  const tail = long.slice(s.length).replace(/s$/, '')
  const rank = table.indexOf(tail)
  return tail.length < 3 || rank < 0 || rank >= COMMON_WORD_RANK
}

/** How the spelling says `a` and `b` could be one thing under two names, or null. */
export function tagEvidence(a: string, b: string, table: WordVectors = loadWordVectors()): Evidence | null {
  if (a === b || !latin(a) || !latin(b)) return null
  const [short, long] = squash(a).length <= squash(b).length ? [a, b] : [b, a]
  if (squash(short) === squash(long)) return 'joined'
  if (isInitials(short, long)) return short.replace(/s$/, '').length <= 2 ? 'two-initials' : 'initials'
  if (isClipped(short, long, table)) return 'clipped'
  return null
}

export const shouldMerge = (a: string, b: string, cosine: number, table?: WordVectors): boolean => {
  const e = tagEvidence(a, b, table)
  return e !== null && cosine >= MERGE_COSINE[e]
}

export type TagMerger = {
  /**
   * The post's tags with each one new to the library read against the vocabulary: a near-synonym of
   * a tag already there becomes that tag (and stays merged in the vocabulary).
   */
  resolve(tags: string[]): Promise<string[]>
  /** Tags the library already has (read from it, not from new posts): merged into, never merged. */
  know(tags: string[]): void
}

type Encode = (texts: string[]) => Promise<Float32Array[]>
/** Names' vectors kept (2 KB each); past this the cache starts again. */
const VECTOR_CACHE = 4000

export function createTagMerger(vocab: TagVocabulary, encode: Encode, table: WordVectors = loadWordVectors()): TagMerger {
  const vectors = new Map<string, Float32Array>()
  const checked = new Set<string>()
  // Every kind of evidence needs the same first letter: the library's tags are looked through by it.
  // A tag joins them once it is resolved, so two new tags of one post are read one against the other.
  const byFirst = new Map<string, Set<string>>()
  const add = (t: string) => {
    const set = byFirst.get(t[0])
    if (set) set.add(t)
    else byFirst.set(t[0], new Set([t]))
  }
  const know = (t: string) => {
    checked.add(t)
    add(t)
  }
  for (const t of vocab.tags()) know(t)
  const vectorsOf = async (tags: string[]) => {
    if (vectors.size > VECTOR_CACHE) vectors.clear()
    const missing = [...new Set(tags.filter((t) => !vectors.has(t)))]
    if (missing.length) (await encode(missing)).forEach((v, i) => vectors.set(missing[i], v))
  }
  const resolveOne = async (tag: string): Promise<string> => {
    const known = byFirst.get(tag[0]) ?? new Set<string>()
    const candidates = latin(tag) ? [...known].filter((k) => k !== tag && tagEvidence(tag, k, table) !== null) : []
    const best = candidates.length ? await closest(tag, candidates) : null
    if (!best) {
      add(tag)
      return tag
    }
    vocab.merge(tag, best)
    return best
  }
  const closest = async (tag: string, candidates: string[]): Promise<string | null> => {
    await vectorsOf([tag, ...candidates])
    const scored = candidates.map((k) => ({ k, cos: dot(vectors.get(tag)!, vectors.get(k)!) })).filter((c) => shouldMerge(tag, c.k, c.cos, table))
    return scored.sort((x, y) => y.cos - x.cos)[0]?.k ?? null
  }
  return {
    know(tags) {
      for (const t of tags) {
        const tag = vocab.normalize(t)
        if (tag) know(tag)
      }
    },
    async resolve(tags) {
      const out: string[] = []
      for (const raw of tags) {
        let tag = vocab.normalize(raw)
        if (tag && !checked.has(tag)) {
          checked.add(tag)
          tag = await resolveOne(tag)
        }
        if (tag && !out.includes(tag)) out.push(tag)
      }
      return out
    },
  }
}
