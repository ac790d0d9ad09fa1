import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEncoderHost } from '../../../src-main/ai/index.ts'
import { encoderOverPort } from '../../../src-main/ai/local/encoder-port.ts'
import { encoderPrecision } from '../../../src-main/ai/local/encoder-precision.ts'
import { QUESTION_INT8, quantizeColumns, quantizeWeightMatMuls } from '../../../src-main/ai/local/int8-matmul.ts'
import { OnnxType } from '../../../src-main/ai/local/onnx-proto.ts'
import { encoderInput, sentenceEncoder, type SentenceEncoder } from '../../../src-main/ai/local/sentence-encoder.ts'
import { embedGraph, onnxRuntime, readUseLiteGraph } from '../../../src-main/ai/local/use-lite-onnx.ts'
import { dot } from '../../../src-main/ai/local/word-vectors.ts'
import { hasFixtures, readFixturePosts } from './fixture-posts.ts'

/**
 * The lowest cosine to fp32 measured for the questions' int8 model (bench/encoder-onnx.ts int8-agree) over 1,264
 * archive posts, 2,000 generated posts and 637 questions: 0.99744 with a scale per activation row (docs/load-history.md,
 * stop 35), 0.99548 with one per call (stops 32-33).
 */
const MEASURED_MIN_COSINE = 0.995

const TEXTS = [
  'Rust async runtimes compared: tokio vs async-std, with benchmarks',
  'ok',
  'how do I make slow sql lookups fast',
  'Ce fil explique comment fonctionne la photosynthèse, étape par étape.',
  'A long thread on how we cut our cloud bill by 60% — caching, right-sizing, spot instances, and turning things off at night. '.repeat(3),
]

describe('the sentence model with int8 weight products', () => {
  let fp32: SentenceEncoder
  let int8: SentenceEncoder
  let graph: Awaited<ReturnType<typeof readUseLiteGraph>>
  beforeAll(async () => {
    graph = await readUseLiteGraph()
    fp32 = sentenceEncoder(await embedGraph(onnxRuntime()!, graph))
    int8 = sentenceEncoder(await embedGraph(onnxRuntime()!, await readUseLiteGraph('int8')))
  }, 60_000)

  it('runs every weight product of the graph as int8, and no float copy of those weights stays', () => {
    const weights = new Set(graph.initializers.filter((t) => t.dims.length === 2 && t.type === OnnxType.Float).map((t) => t.name))
    const products = graph.nodes.filter((n) => n.op === 'MatMul' && weights.has(n.inputs[1]))
    const q = quantizeWeightMatMuls(graph)
    const quantized = q.nodes.filter((n) => n.op === 'DynamicQuantizeMatMul')
    expect(products.length).toBeGreaterThan(0)
    expect(quantized.map((n) => n.outputs[0])).toEqual(products.map((n) => n.outputs[0]))
    expect(q.initializers.filter((t) => products.some((n) => n.inputs[1] === t.name))).toEqual([])
    expect(q.nodes.filter((n) => n.op === 'MatMul')).toHaveLength(graph.nodes.filter((n) => n.op === 'MatMul').length - products.length)
  })

  it('encodes questions with every weight product in int8 (8 bits, a scale per column), activations a row at a time', async () => {
    const q = await readUseLiteGraph('int8')
    const products = q.nodes.filter((n) => n.op === 'MatMulInteger')
    const perCall = quantizeWeightMatMuls(graph).nodes.filter((n) => n.op === 'DynamicQuantizeMatMul')
    expect(products).toHaveLength(perCall.length)
    expect(q.nodes.filter((n) => n.op === 'DynamicQuantizeMatMul')).toEqual([])
    for (const n of products) {
      const w = q.initializers.find((t) => t.name === n.inputs[1])!
      expect(w.type).toBe(OnnxType.Int8)
      // The row's scale comes from the row alone: its largest magnitude along the last axis.
      const max = q.nodes.find((m) => m.op === 'ReduceMax' && m.outputs[0] === n.inputs[0].replace(/\/q$/, '/max'))!
      expect(max.attrs).toEqual({ keepdims: 1 })
      expect(q.initializers.find((t) => t.name === max.inputs[1])!.data).toEqual(new Uint8Array(new BigInt64Array([-1n]).buffer))
    }
    // Each product still ends in the original output, scaled by its columns.
    const columnScaled = q.nodes.filter((n) => n.op === 'Mul' && q.initializers.some((t) => t.name === n.inputs[1] && t.name.endsWith('#scale')))
    expect(columnScaled.map((n) => n.outputs[0])).toEqual(perCall.map((n) => n.outputs[0]))
    for (const n of columnScaled) {
      const w = q.initializers.find((t) => t.name === n.inputs[1].replace(/#scale$/, '#int8'))!
      expect(q.initializers.find((t) => t.name === n.inputs[1])!.dims).toEqual([w.dims[1]])
    }
    expect(QUESTION_INT8.bits).toBe(8)
  })

  it('gives a question the same vector alone as in a call with others, bit for bit (a scale per call would not)', async () => {
    const alone = await Promise.all(TEXTS.map(async (t) => (await int8.encode([t]))[0]))
    expect(await int8.encode(TEXTS)).toEqual(alone)
    const perCall = sentenceEncoder(await embedGraph(onnxRuntime()!, quantizeWeightMatMuls(graph, { ...QUESTION_INT8, activations: 'call' })))
    const perCallAlone = await Promise.all(TEXTS.map(async (t) => (await perCall.encode([t]))[0]))
    expect(await perCall.encode(TEXTS)).not.toEqual(perCallAlone)
  }, 60_000)

  it('keeps each weight within half a step of its column\'s scale (8 and 7 bits)', () => {
    const w = graph.initializers.find((t) => t.name.endsWith('tanh_layer_0/weights'))!
    const [, columns7] = w.dims
    const seven = quantizeColumns(w, 'column', 7)
    const values7 = new Float32Array(w.data.slice().buffer)
    const q7 = new Int8Array(seven.weights.data.buffer, seven.weights.data.byteOffset, seven.weights.data.length)
    const steps7 = new Float32Array(seven.scale.data.buffer, seven.scale.data.byteOffset, columns7)
    values7.forEach((v, i) => expect(Math.abs(v - q7[i] * steps7[i % columns7])).toBeLessThanOrEqual(steps7[i % columns7] / 2 + 1e-7))
    expect(q7.reduce((m, x) => Math.max(m, Math.abs(x)), 0)).toBe(63)
    const { weights, scale } = quantizeColumns(w, 'column')
    const [, columns] = w.dims
    const values = new Float32Array(w.data.slice().buffer)
    const q = new Int8Array(weights.data.buffer, weights.data.byteOffset, weights.data.length)
    const steps = new Float32Array(scale.data.buffer, scale.data.byteOffset, columns)
    expect(steps).toHaveLength(columns)
    values.forEach((v, i) => expect(Math.abs(v - q[i] * steps[i % columns])).toBeLessThanOrEqual(steps[i % columns] / 2 + 1e-7))
    expect(q.reduce((m, x) => Math.max(m, Math.abs(x)), 0)).toBe(127)
  })

  it('gives vectors within the measured cosine of fp32 (real posts where the fixtures are), not the same ones', async () => {
    const real = hasFixtures ? readFixturePosts().map((p) => encoderInput(p.text)).slice(0, 120) : []
    const texts = [...TEXTS, ...real]
    const [a, b] = [await fp32.encode(texts), await int8.encode(texts)]
    const cosines = a.map((v, i) => dot(v, b[i]))
    for (const c of cosines) expect(c).toBeGreaterThan(MEASURED_MIN_COSINE)
    expect(cosines.filter((c) => c < 1 - 1e-6).length).toBeGreaterThan(texts.length / 2)
  }, 60_000)

  it('still tells related texts from unrelated ones', async () => {
    const [q, near, far] = await int8.encode(['how do I bake sourdough bread', 'my sourdough starter recipe and baking tips', 'quarterly earnings beat analyst expectations'])
    expect(dot(q, near)).toBeGreaterThan(dot(q, far) + 0.2)
  })
})

describe('which precision encodes what (SHEAF_ENCODER_INT8)', () => {
  it('is int8 for questions and fp32 for posts unless asked otherwise', () => {
    expect([encoderPrecision('query', {}), encoderPrecision('batch', {})]).toEqual(['int8', 'fp32'])
    expect([encoderPrecision('query', { SHEAF_ENCODER_INT8: 'questions' }), encoderPrecision('batch', { SHEAF_ENCODER_INT8: 'questions' })]).toEqual(['int8', 'fp32'])
    expect([encoderPrecision('query', { SHEAF_ENCODER_INT8: 'off' }), encoderPrecision('batch', { SHEAF_ENCODER_INT8: 'off' })]).toEqual(['fp32', 'fp32'])
    expect(encoderPrecision('query', { SHEAF_ENCODER_INT8: 'yes' })).toBe('fp32')
    expect([encoderPrecision('query', { SHEAF_ENCODER_INT8: 'all' }), encoderPrecision('batch', { SHEAF_ENCODER_INT8: 'all' })]).toEqual(['int8', 'int8'])
  })

  describe('in the model\'s thread, with SHEAF_ENCODER_INT8=questions', () => {
    const was = process.env.SHEAF_ENCODER_INT8
    process.env.SHEAF_ENCODER_INT8 = 'questions'
    const host = createEncoderHost()
    afterAll(async () => {
      await host.close()
      if (was === undefined) delete process.env.SHEAF_ENCODER_INT8
      else process.env.SHEAF_ENCODER_INT8 = was
    })

    it('encodes a query with the questions\' int8 model, and while a job runs its texts and queries with fp32 (one session)', async () => {
      const here = { fp32: sentenceEncoder(await embedGraph(onnxRuntime()!, await readUseLiteGraph())), int8: sentenceEncoder(await embedGraph(onnxRuntime()!, await readUseLiteGraph('int8'))) }
      const [fp32, int8] = [await here.fp32.encode(TEXTS), await here.int8.encode(TEXTS)]
      expect(int8).not.toEqual(fp32)
      expect(await host.encode(TEXTS)).toEqual(int8)
      for (let job = 0; job < 2; job++) {
        const lease = host.lease()
        const batch = await encoderOverPort(lease.port).encode(TEXTS)
        expect(batch).toEqual(fp32)
        expect(await host.encode(TEXTS)).toEqual(fp32)
        lease.port.close()
        lease.release()
        // The job's port closed: questions are int8 again, and the next job loads fp32 again.
        await new Promise((r) => setTimeout(r, 200))
        expect(await host.encode(TEXTS)).toEqual(int8)
      }
    }, 60_000)
  })
})
