import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { memoByDir } from './resources.ts'
import { cleanText, simpleWords, stem } from './text.ts'

/** An int8-quantised word-vector table (format described in scripts/build-word-vectors.ts). */
export type WordVectors = {
  dim: number
  size: number
  /** Index of a word, trying simple stemmed forms for unknown words; -1 when unknown. */
  indexOf(word: string): number
  /** SIF weight a/(a+p(w)) with p(w) from the word's Zipf rank: rare words count more. */
  weight(index: number): number
  /** Adds weight * vector(index) into `into`. */
  addTo(into: Float32Array, index: number, weight: number): void
  /** Unit direction every averaged text shares (SIF's common component); removed from embeddings. */
  common: Float32Array
}

const SIF_A = 1e-3

export const parseWordVectors = (buf: Buffer): WordVectors => {
  if (buf.toString('latin1', 0, 8) !== 'SHWV0001') throw new Error('word-vectors.bin: unknown format')
  const dim = buf.readUInt32LE(8)
  const size = buf.readUInt32LE(12)
  const vocabBytes = buf.readUInt32LE(16)
  const words = buf.toString('utf8', 20, 20 + vocabBytes).split('\n')
  const index = new Map<string, number>()
  for (let i = 0; i < words.length; i++) index.set(words[i], i)
  let off = 20 + Math.ceil(vocabBytes / 4) * 4
  // Copy the numeric sections into aligned typed arrays; the vocab string is dropped after the Map is built.
  const ranks = new Uint32Array(buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + size * 4))
  off += size * 4
  const scales = new Float32Array(buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + size * 4))
  off += size * 4
  const q = new Int8Array(buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + size * dim))
  const weights = new Float32Array(size)
  for (let i = 0; i < size; i++) weights[i] = SIF_A / (SIF_A + 0.1 / (ranks[i] + 1))

  const indexOf = (word: string): number => {
    const hit = index.get(word)
    if (hit !== undefined) return hit
    const s = stem(word)
    const alt = index.get(s) ?? index.get(s + 'e') ?? index.get(word.replace(/['’]s$/, ''))
    return alt ?? -1
  }
  const addTo = (into: Float32Array, i: number, w: number) => {
    const k = w * scales[i]
    const base = i * dim
    for (let d = 0; d < dim; d++) into[d] += k * q[base + d]
  }
  // The expected text vector under Zipf frequencies: what every average has in common.
  const common = new Float32Array(dim)
  for (let i = 0; i < size; i++) addTo(common, i, (0.1 / (ranks[i] + 1)) * weights[i])
  return { dim, size, indexOf, weight: (i) => weights[i], addTo, common: normalize(common) }
}

export const loadWordVectors = memoByDir((dir) => parseWordVectors(readFileSync(join(dir, 'word-vectors.bin'))))

export const normalize = (v: Float32Array): Float32Array => {
  let n = 0
  for (let d = 0; d < v.length; d++) n += v[d] * v[d]
  n = Math.sqrt(n)
  if (n > 0) for (let d = 0; d < v.length; d++) v[d] /= n
  return v
}

/** Weighted average of the words' vectors, L2-normalised; all zeros when no word is known. */
export const embedWords = (words: Iterable<string>, table: WordVectors = loadWordVectors()): Float32Array => {
  const v = new Float32Array(table.dim)
  for (const w of words) {
    const i = table.indexOf(w)
    if (i >= 0) table.addTo(v, i, table.weight(i))
  }
  let proj = 0
  for (let d = 0; d < v.length; d++) proj += v[d] * table.common[d]
  for (let d = 0; d < v.length; d++) v[d] -= proj * table.common[d]
  return normalize(v)
}

export const embedText = (text: string, table: WordVectors = loadWordVectors()): Float32Array =>
  embedWords(simpleWords(cleanText(text)), table)

/** Dot product: the cosine of two unit-length vectors (sentence-encoder vectors are). */
export const dot = (a: Float32Array, b: Float32Array): number => {
  let s = 0
  // The length read once: the categoriser's ~160 dot products per post took ~40% longer re-reading it
  // each step (stage 4's workers, measured in isolation). Same order of sums, so the same results.
  const n = a.length
  for (let i = 0; i < n; i++) s += a[i] * b[i]
  return s
}

/** Cosine similarity; vectors from embedText are unit length, but this does not assume it. */
export const cosine = (a: Float32Array, b: Float32Array): number => {
  let dot = 0
  let na = 0
  let nb = 0
  for (let d = 0; d < a.length; d++) {
    dot += a[d] * b[d]
    na += a[d] * a[d]
    nb += b[d] * b[d]
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}
