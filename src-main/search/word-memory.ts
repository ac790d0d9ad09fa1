import type { PostTest, WordIndexReader } from '../store/index.ts'
import type { Candidate } from './candidates.ts'

/**
 * The word index (FTS5's search_fts) copied into memory for a settled library, so the word half of a
 * search is scored in JS: FTS5's bm25() costs an IDF pass over each word's whole doclist and ~1-3 µs a
 * scored row (position lists, a %_docsize read), and only C could make that cheaper. Built from FTS5's
 * own tokens (word-memory-worker.ts), valid only for the index state it was read from (`stamp`).
 * Scores are bm25()'s exactly: the same inputs (each post's column-weighted frequency summed instance
 * by instance in FTS5's order, its token count, the averages record, C's `log` for the IDF) through
 * the same double arithmetic as fts5_aux.c.
 */
export interface WordArrays {
  stamp: string
  /** FTS5's row count (N) and token count, for the average length. */
  rows: number
  tokens: number
  weights: Float64Array
  /** Every term's UTF-8 bytes, in FTS5's (byte) order; term t is terms[termStarts[t] … termStarts[t + 1]). */
  terms: Uint8Array
  termStarts: Int32Array
  /** Posts holding each term. */
  docCounts: Int32Array
  /** Term t's posts newest first, at postings[postStarts[t] … postStarts[t + 1]): varint gaps from nDocs down, each with a varint profile. */
  postings: Uint8Array
  postStarts: Int32Array
  /** Per profile, its instance count in each column (COLS a profile). */
  profiles: Uint16Array
  /** Each post (dense, ascending) by rowid, and its token count over all columns. */
  rowids: Float64Array
  sizes: Int32Array
  /** bm25()'s IDF of a phrase held by n posts, n = 0 … rows. */
  idf: Float64Array
}

export const wordArrayBuffers = (a: WordArrays): ArrayBuffer[] =>
  [a.weights, a.terms, a.termStarts, a.docCounts, a.postings, a.postStarts, a.profiles, a.rowids, a.sizes, a.idf].map((x) => x.buffer as ArrayBuffer)

export const wordArrayBytes = (a: WordArrays): number => wordArrayBuffers(a).reduce((s, b) => s + b.byteLength, 0)

/** A byte buffer that grows, written as varints (LEB128). */
class Bytes {
  buf = new Uint8Array(1 << 16)
  length = 0
  private room(n: number) {
    if (this.length + n <= this.buf.length) return
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n))
    next.set(this.buf.subarray(0, this.length))
    this.buf = next
  }
  varint(v: number) {
    this.room(5)
    while (v >= 0x80) {
      this.buf[this.length++] = (v & 0x7f) | 0x80
      v >>>= 7
    }
    this.buf[this.length++] = v
  }
  bytes(b: Uint8Array) {
    this.room(b.length)
    this.buf.set(b, this.length)
    this.length += b.length
  }
  done = (): Uint8Array => this.buf.slice(0, this.length)
}

/** Ints that grow. */
class Ints {
  buf = new Int32Array(1 << 10)
  length = 0
  push(v: number) {
    if (this.length === this.buf.length) {
      const next = new Int32Array(this.buf.length * 2)
      next.set(this.buf)
      this.buf = next
    }
    this.buf[this.length++] = v
  }
  done = (): Int32Array => this.buf.slice(0, this.length)
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i]
  return a.length - b.length
}

/** A post's dense index (its place in `rowids`, ascending) by rowid, or -1. */
function denseOf(rowids: Float64Array, rowid: number): number {
  let lo = 0
  let hi = rowids.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (rowids[mid] < rowid) lo = mid + 1
    else if (rowids[mid] > rowid) hi = mid - 1
    else return mid
  }
  return -1
}

/** Packs what `r` reads into WordArrays (on the worker: a 100,000-post library in a few seconds). */
/**
 * A sort's comparison for larger first, as `b - a` orders but returning -1, 0 or 1: the difference of two
 * scores is a fraction, which the sort's call boxed (a heap number each, ~40 KB of garbage a search in best()).
 */
export const descending = (a: number, b: number): number => (b > a ? 1 : b < a ? -1 : 0)

export function packWordIndex(r: WordIndexReader): WordArrays {
  const cols = r.weights.length
  const ids: number[] = []
  const sz: number[] = []
  r.sizes((id, s) => {
    ids.push(id)
    sz.push(s)
  })
  const rowids = Float64Array.from(ids)
  const nDocs = rowids.length
  if (nDocs !== r.rows) throw new Error(`word index: ${nDocs} sizes for ${r.rows} rows`)
  let lastRowid = -1
  let lastDense = -1
  const dense = (rowid: number): number => rowid === lastRowid ? lastDense : (lastDense = find((lastRowid = rowid)))
  const find = (rowid: number): number => {
    const d = denseOf(rowids, rowid)
    if (d < 0) throw new Error(`word index: post ${rowid} has tokens but no size`)
    return d
  }

  const profileIds = new Map<number | string, number>()
  const profiles: number[] = []
  const counts = new Int32Array(cols)
  const profileOf = (): number => {
    let key: number | string = 0
    for (let c = cols - 1; c >= 0; c--) key = key * 64 + counts[c]
    if (counts.some((n) => n >= 64)) key = counts.join(',')
    let id = profileIds.get(key)
    if (id === undefined) {
      profileIds.set(key, (id = profileIds.size))
      for (const n of counts) profiles.push(n)
    }
    return id
  }

  const terms = new Bytes()
  const postings = new Bytes()
  const termStarts = new Ints()
  const postStarts = new Ints()
  const docCounts = new Ints()
  termStarts.push(0)
  postStarts.push(0)
  const docs = new Ints()
  const profs = new Ints()
  const encoder = new TextEncoder()
  let term: string | null = null
  let last = new Uint8Array(0)
  let doc = -1

  const endDoc = () => {
    if (doc < 0) return
    docs.push(doc)
    profs.push(profileOf())
    counts.fill(0)
    doc = -1
  }
  const endTerm = () => {
    endDoc()
    if (term === null) return
    const bytes = encoder.encode(term)
    if (compareBytes(last, bytes) >= 0 && termStarts.length > 1) throw new Error('word index: terms out of order')
    last = bytes
    terms.bytes(bytes)
    termStarts.push(terms.length)
    let prev = nDocs
    for (let k = docs.length - 1; k >= 0; k--) {
      postings.varint(prev - docs.buf[k])
      postings.varint(profs.buf[k])
      prev = docs.buf[k]
    }
    postStarts.push(postings.length)
    docCounts.push(docs.length)
    docs.length = 0
    profs.length = 0
  }

  r.instances((t, rowid, col) => {
    if (t !== term) {
      endTerm()
      term = t
    }
    const d = dense(rowid)
    if (d !== doc) {
      if (d < doc || (docs.length > 0 && d <= docs.buf[docs.length - 1])) throw new Error('word index: posts out of order')
      endDoc()
      doc = d
    }
    counts[col]++
  })
  endTerm()
  if (profiles.some((n) => n > 0xffff)) throw new Error('word index: a column holds a word more than 65,535 times')

  return {
    stamp: r.stamp, rows: r.rows, tokens: r.tokens, weights: Float64Array.from(r.weights),
    terms: terms.done(), termStarts: termStarts.done(), docCounts: docCounts.done(), postings: postings.done(), postStarts: postStarts.done(),
    profiles: Uint16Array.from(profiles), rowids, sizes: Int32Array.from(sz), idf: r.idf(),
  }
}

/** A phrase of the question: the terms it stands for (one, or a prefix's range) and how many posts hold any of them. */
export interface WordPhrase { from: number; to: number; docs: number }

/** What a walk leaves out besides the phrases' own posts: searchLexical's filter, from memory. */
export interface WordWalk {
  /** Posts holding any of these are not matches (FTS5's NOT): they are neither walked nor scored. */
  not?: readonly WordPhrase[]
  /** Posts kept must hold each of these (a filter's one-word quoted phrases). */
  must?: readonly WordPhrase[]
  /** Posts kept must pass this (a filter's posts in memory, by rowid). */
  passing?: PostTest | null
  /** Matches walked at most, newest first (default: `cap`); the newest `cap` of them that pass are scored. */
  walk?: number
}

export interface WordIndex {
  readonly stamp: string
  /** Bytes held (the arrays). */
  readonly bytes: number
  /** The phrase a token stands for; `prefix`: every term starting with it. */
  phrase(token: string, prefix: boolean): WordPhrase
  /**
   * What searchLexical answers for these phrases OR-ed: the newest `walk.walk` matches (posts holding any,
   * none of `walk.not`), of them the newest `cap` that pass `walk`'s tests, scored by bm25() (negated: higher
   * is better), the best `limit`, equal scores newest first.
   */
  best(phrases: readonly WordPhrase[], limit: number, cap: number, walk?: WordWalk): Candidate[]
  /** Which of `ids` hold any of the phrases, in their order (searchMatchingAmong). */
  among(phrases: readonly WordPhrase[], ids: readonly number[]): number[]
  /** Every term and the number of posts holding it, in FTS5's order (searchVocabulary). */
  vocabulary(): Array<{ term: string; doc: number }>
  /** Prefixes whose post counts are held (at most KEEP_PREFIXES). */
  readonly prefixCounts: number
}

/** fts5_aux.c's constants. */
const K1 = 1.2
const B = 0.75
/** Prefixes whose post counts are kept (a long-lived copy meets any number of them). */
export const KEEP_PREFIXES = 1024

export function openWordIndex(a: WordArrays): WordIndex {
  const nTerms = a.docCounts.length
  const nDocs = a.rowids.length
  const cols = a.weights.length
  const avgdl = a.tokens / a.rows
  const { terms, termStarts, postings, postStarts, profiles, weights } = a
  const encoder = new TextEncoder()

  /** Term t against `key`: its sign; with `prefixOnly`, 0 for any term that starts with `key`. */
  const compare = (t: number, key: Uint8Array, prefixOnly: boolean): number => {
    const s = termStarts[t]
    const len = termStarts[t + 1] - s
    const n = Math.min(len, key.length)
    for (let i = 0; i < n; i++) if (terms[s + i] !== key[i]) return terms[s + i] - key[i]
    return prefixOnly && len >= key.length ? 0 : len - key.length
  }
  /** The first term not below `key` (`prefixOnly`: the first past every term starting with it, with `after`). */
  const bound = (key: Uint8Array, prefixOnly: boolean, after: boolean): number => {
    let lo = 0
    let hi = nTerms
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const c = compare(mid, key, prefixOnly)
      if (c < 0 || (after && c === 0)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  // Posts marked while a prefix's terms are merged for its post count.
  const marks = new Uint32Array(nDocs)
  let generation = 0
  /** Prefixes' post counts by term range: fixed for the copy, so a cleared one is only counted again. */
  const unions = new Map<number, number>()
  const union = (from: number, to: number): number => {
    const key = from * (nTerms + 1) + to
    const known = unions.get(key)
    if (known !== undefined) return known
    if (++generation === 0xffffffff) {
      marks.fill(0)
      generation = 1
    }
    let n = 0
    for (let t = from; t < to; t++) {
      let doc = nDocs
      for (let p = postStarts[t], end = postStarts[t + 1]; p < end;) {
        let v = 0
        let shift = 0
        let byte: number
        do {
          byte = postings[p++]
          v |= (byte & 0x7f) << shift
          shift += 7
        } while (byte & 0x80)
        doc -= v
        while (postings[p++] & 0x80);
        if (marks[doc] !== generation) {
          marks[doc] = generation
          n++
        }
      }
    }
    if (unions.size >= KEEP_PREFIXES) unions.clear()
    unions.set(key, n)
    return n
  }

  const phrase = (token: string, prefix: boolean): WordPhrase => {
    const key = encoder.encode(token)
    const from = bound(key, false, false)
    const to = prefix ? bound(key, true, true) : from < nTerms && compare(from, key, false) === 0 ? from + 1 : from
    const docs = to - from === 0 ? 0 : to - from === 1 ? a.docCounts[from] : union(from, to)
    return { from, to, docs }
  }

  /** Whether a post holds any of the phrases, asked of posts newest first (never one newer than the post asked before). */
  const holder = (phrases: readonly WordPhrase[]): ((d: number) => boolean) => {
    const pos: number[] = []
    const end: number[] = []
    const doc: number[] = []
    for (const p of phrases) {
      for (let t = p.from; t < p.to; t++) {
        pos.push(postStarts[t])
        end.push(postStarts[t + 1])
        doc.push(nDocs)
      }
    }
    return (d) => {
      for (let c = 0; c < pos.length; c++) {
        let at = doc[c]
        let p = pos[c]
        while (at > d && p < end[c]) {
          let v = 0
          let shift = 0
          let byte: number
          do {
            byte = postings[p++]
            v |= (byte & 0x7f) << shift
            shift += 7
          } while (byte & 0x80)
          at -= v
          while (postings[p++] & 0x80);
        }
        doc[c] = at
        pos[c] = p
        if (at === d) return true
      }
      return false
    }
  }

  const among = (phrases: readonly WordPhrase[], ids: readonly number[]): number[] => {
    const dense = ids.map((id) => denseOf(a.rowids, id))
    const order = dense.map((_, i) => i).filter((i) => dense[i] >= 0).sort((x, y) => dense[y] - dense[x])
    const holds = holder(phrases)
    const held = new Uint8Array(ids.length)
    for (const i of order) if (holds(dense[i])) held[i] = 1
    return ids.filter((_, i) => held[i] === 1)
  }

  const best = (phrases: readonly WordPhrase[], limit: number, cap: number, walk: WordWalk = {}): Candidate[] => {
    const excluded = walk.not?.length ? holder(walk.not) : null
    const must = (walk.must ?? []).map((p) => holder([p]))
    const passing = walk.passing ?? null
    const maxWalk = walk.walk ?? cap
    // One cursor per term of every phrase, walking its posts newest first; a heap keeps the newest cursor on top.
    let k = 0
    for (const p of phrases) k += p.to - p.from
    const pos = new Int32Array(k)
    const end = new Int32Array(k)
    const doc = new Int32Array(k)
    const prof = new Int32Array(k)
    const owner = new Int32Array(k)
    const heap = new Int32Array(k)
    let h = 0
    const advance = (c: number): boolean => {
      let p = pos[c]
      if (p >= end[c]) return false
      let v = 0
      let shift = 0
      let byte: number
      do {
        byte = postings[p++]
        v |= (byte & 0x7f) << shift
        shift += 7
      } while (byte & 0x80)
      doc[c] -= v
      v = 0
      shift = 0
      do {
        byte = postings[p++]
        v |= (byte & 0x7f) << shift
        shift += 7
      } while (byte & 0x80)
      prof[c] = v
      pos[c] = p
      return true
    }
    const down = (i: number) => {
      const c = heap[i]
      for (;;) {
        let j = 2 * i + 1
        if (j >= h) break
        if (j + 1 < h && doc[heap[j + 1]] > doc[heap[j]]) j++
        if (doc[heap[j]] <= doc[c]) break
        heap[i] = heap[j]
        i = j
      }
      heap[i] = c
    }
    let c = 0
    phrases.forEach((p, i) => {
      for (let t = p.from; t < p.to; t++, c++) {
        pos[c] = postStarts[t]
        end[c] = postStarts[t + 1]
        doc[c] = nDocs
        owner[c] = i
        if (advance(c)) heap[h++] = c
      }
    })
    for (let i = (h >> 1) - 1; i >= 0; i--) down(i)

    const idf = phrases.map((p) => a.idf[p.docs])
    const acc = new Int32Array(phrases.length * cols)
    const found: Candidate[] = []
    /** Whether post d passes the walk's tests (not whether it is a match). */
    const kept = (d: number): boolean => {
      if (passing && !passing.has(a.rowids[d])) return false
      for (const holds of must) if (!holds(d)) return false
      return true
    }
    let walked = 0
    while (h > 0 && found.length < cap && walked < maxWalk) {
      const d = doc[heap[0]]
      const excludedHere = excluded !== null && excluded(d)
      if (!excludedHere) walked++
      // Its cursors move past it either way; their counts are summed only for a post that is scored.
      const scored = !excludedHere && kept(d)
      if (scored) acc.fill(0)
      while (h > 0 && doc[heap[0]] === d) {
        const top = heap[0]
        if (scored) {
          const base = owner[top] * cols
          const pr = prof[top] * cols
          for (let col = 0; col < cols; col++) acc[base + col] += profiles[pr + col]
        }
        if (!advance(top)) heap[0] = heap[--h]
        down(0)
      }
      if (!scored) continue
      // fts5Bm25Function: each phrase's frequency summed instance by instance (columns in order), then its term.
      const D = a.sizes[d]
      let score = 0
      for (let i = 0; i < phrases.length; i++) {
        let f = 0
        for (let col = 0; col < cols; col++) for (let n = acc[i * cols + col]; n > 0; n--) f += weights[col]
        if (f > 0) score += idf[i] * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + B * D / avgdl)))
      }
      found.push({ id: a.rowids[d], score })
    }
    // Stable: equal scores stay newest first, as SQLite's sorter keeps them in the order the rows came.
    return found.sort((x, y) => descending(x.score, y.score)).slice(0, limit)
  }

  const vocabulary = (): Array<{ term: string; doc: number }> => {
    const decoder = new TextDecoder()
    return Array.from(a.docCounts, (doc, t) => ({ term: decoder.decode(terms.subarray(termStarts[t], termStarts[t + 1])), doc }))
  }

  return {
    stamp: a.stamp, bytes: wordArrayBytes(a), phrase, best, among, vocabulary,
    get prefixCounts() {
      return unions.size
    },
  }
}
