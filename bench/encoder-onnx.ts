/**
 * The sentence model (USE Lite) on ONNX Runtime against the same model on TF.js.
 *   node bench/encoder-onnx.ts parity      cosine of the two engines' vectors on ~300 real and generated posts (gate: >= 0.9999 each)
 *   node bench/encoder-onnx.ts speed       texts/s and CPU ms per text at tweet length, batches 8/32/64, 1 and 2 intra-op threads
 *   node bench/encoder-onnx.ts rss onnx|tfjs   resident memory before and after loading one engine and encoding 400 posts
 * Timing figures go under the shared lock: flock /work/bench.lock node bench/encoder-onnx.ts speed
 */
import { existsSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { sentenceEncoder } from '../src-main/ai/local/sentence-encoder.ts'
import { loadUseLiteOnnx, onnxRuntime, type EmbedBatch } from '../src-main/ai/local/use-lite-onnx.ts'
import { loadUseLiteTfjs } from '../src-main/ai/local/use-lite-tfjs.ts'
import { encoderInput } from '../src-main/ai/local/sentence-encoder.ts'
import { generatePosts } from './generate-library.ts'

const ARCHIVE = new URL('../../shared/fixtures/exports/archive/alrocar_x/', import.meta.url)
const mode = process.argv[2] ?? 'parity'
const load = { loadAverage1m: Math.round(loadavg()[0] * 10) / 10 }
const print = (o: object) => process.stdout.write(JSON.stringify({ bench: 'encoder-onnx', mode, ...o, machine: load }) + '\n')

/** Real posts from the personal archive fixture (short posts and long notes), else generated ones only. */
function realPosts(): string[] {
  const read = (file: string) => JSON.parse(readFileSync(new URL(file, ARCHIVE), 'utf8').replace(/^[^=]*=/, '')) as Record<string, any>[]
  if (!existsSync(new URL('tweets.js', ARCHIVE))) return []
  const tweets = read('tweets.js').map((t) => String(t.tweet.full_text))
  const notes = read('note-tweet.js').map((t) => String(t.noteTweet.core.text))
  return [...tweets.filter((_, i) => i % 6 === 0), ...notes]
}

const onnx = (threads = 1) => loadUseLiteOnnx(onnxRuntime()!, threads)

if (mode === 'parity') {
  const real = realPosts()
  const texts = [...real, ...generatePosts(300 - Math.min(real.length, 240)).map((p) => p.text)]
  const [a, b] = [await sentenceEncoder(await loadUseLiteTfjs()).encode(texts), await sentenceEncoder(await onnx()).encode(texts)]
  const cos = a.map((v, i) => v.reduce((s, x, d) => s + x * b[i][d], 0)).sort((x, y) => x - y)
  print({ texts: texts.length, real: real.length, minCosine: cos[0], p01Cosine: cos[Math.floor(cos.length * 0.01)], below09999: cos.filter((c) => c < 0.9999).length })
} else if (mode === 'speed') {
  const texts = generatePosts(2000).map((p) => encoderInput(p.text)).filter((t) => t.length <= 280).slice(0, 640)
  const meanChars = Math.round(texts.reduce((s, t) => s + t.length, 0) / texts.length)
  const time = async (engine: string, embed: EmbedBatch, batch: number, threads: number) => {
    for (let i = 0; i < 64; i += batch) await embed(texts.slice(i, i + batch)) // warm
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    for (let i = 0; i < texts.length; i += batch) await embed(texts.slice(i, i + batch))
    const wall = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    print({ engine, batch, threads, texts: texts.length, meanChars, textsPerSecond: Math.round(texts.length / (wall / 1000)), cpuMsPerText: Math.round(((cpu.user + cpu.system) / 1000 / texts.length) * 100) / 100 })
  }
  const tfjs = await loadUseLiteTfjs()
  for (const batch of [8, 32]) await time('tfjs-wasm', tfjs, batch, 1)
  for (const threads of [1, 2]) {
    const embed = await onnx(threads)
    for (const batch of [8, 32, 64]) await time('onnxruntime', embed, batch, threads)
  }
} else if (mode === 'rss') {
  const mb = () => Math.round(process.memoryUsage().rss / 1e6)
  const texts = generatePosts(400).map((p) => p.text)
  const before = mb()
  const encoder = sentenceEncoder(process.argv[3] === 'tfjs' ? await loadUseLiteTfjs() : await onnx())
  const loaded = mb()
  for (let i = 0; i < texts.length; i += 100) await encoder.encode(texts.slice(i, i + 100))
  print({ engine: process.argv[3] ?? 'onnx', rssMbBefore: before, rssMbAfterLoad: loaded, rssMbAfter400Posts: mb(), engineMb: mb() - before })
}
