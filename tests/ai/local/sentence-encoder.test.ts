import { beforeAll, describe, expect, it } from 'vitest'
import { encoderInput, loadSentenceEncoder, sentenceEncoder, type SentenceEncoder } from '../../../src-main/ai/local/sentence-encoder.ts'
import { encodeModel } from '../../../src-main/ai/local/onnx-proto.ts'
import { sumMiddleAxisInOrder } from '../../../src-main/ai/local/ordered-sum.ts'
import { tfjsToOnnx, type TfjsModelJson } from '../../../src-main/ai/local/tfjs-to-onnx.ts'
import { loadUseLiteOnnx, onnxRuntime } from '../../../src-main/ai/local/use-lite-onnx.ts'
import { loadUseLiteTfjs } from '../../../src-main/ai/local/use-lite-tfjs.ts'
import { dot } from '../../../src-main/ai/local/word-vectors.ts'
import { hasFixtures, readFixturePosts } from './fixture-posts.ts'

const TEXTS = [
  'Rust async runtimes compared: tokio vs async-std, with benchmarks',
  'ok',
  'Just shipped v2 of our open-source vector database 🚀 https://t.co/abc',
  'Ce fil explique comment fonctionne la photosynthèse, étape par étape.',
  'A long thread on how we cut our cloud bill by 60% — caching, right-sizing, spot instances, and turning things off at night. '.repeat(3),
]

describe('the sentence model on ONNX Runtime (translated from its TF.js graph)', () => {
  let onnx: SentenceEncoder
  let tfjs: SentenceEncoder
  beforeAll(async () => {
    onnx = sentenceEncoder(await loadUseLiteOnnx(onnxRuntime()!))
    tfjs = sentenceEncoder(await loadUseLiteTfjs())
  }, 60_000)

  it('gives the TF.js model its vectors, text by text, whatever the batch holds', async () => {
    const [a, b] = [await onnx.encode(TEXTS), await tfjs.encode(TEXTS)]
    a.forEach((v, i) => expect(dot(v, b[i])).toBeGreaterThan(0.9999))
    const alone = await onnx.encode([TEXTS[1]])
    expect(dot(alone[0], a[1])).toBeGreaterThan(0.9999)
  })

  it('gives a text the same vector, bit for bit, alone and in any batch (the pooled sum in token order)', async () => {
    const embed = await loadUseLiteOnnx(onnxRuntime()!)
    const alone = await Promise.all(TEXTS.map(async (t) => (await embed([t]))[0]))
    for (const order of [[0, 1, 2, 3, 4], [4, 1, 3, 0, 2], [1, 3]]) {
      const together = await embed(order.map((i) => TEXTS[i]))
      order.forEach((i, k) => expect(together[k]).toEqual(alone[i]))
    }
    expect(alone[0]).not.toEqual(alone[2])
  })

  it('gives the vectors of a session without the memory arena, bit for bit, alone and in calls of 16 (real posts where the fixtures are)', async () => {
    const real = hasFixtures ? readFixturePosts().map((p) => encoderInput(p.text)).filter((_, i) => i % 3 === 0).slice(0, 64) : []
    const texts = [...TEXTS, ...real]
    const [now, plain] = [await loadUseLiteOnnx(onnxRuntime()!), await loadUseLiteOnnx(onnxRuntime()!, 1, { enableCpuMemArena: false })]
    const alone = async (embed: typeof now) => Promise.all(texts.map(async (t) => (await embed([t]))[0]))
    const reference = await alone(plain)
    expect(await alone(now)).toEqual(reference)
    for (let i = 0; i < texts.length; i += 16) expect(await now(texts.slice(i, i + 16))).toEqual(reference.slice(i, i + 16))
  }, 60_000)

  it('refuses to reorder a sum that is not over a middle axis', () => {
    const g = tfjsToOnnx({
      modelTopology: { node: [{ name: 'x', op: 'Placeholder', attr: { dtype: { type: 1 } } }, { name: 'y', op: 'Rsqrt', input: ['x'], attr: { T: { type: 1 } } }] },
      weightsManifest: [],
    }, [])
    expect(() => sumMiddleAxisInOrder(g, 'y')).toThrow('y is not a sum over axis 1 without kept dims')
  })

  it('tells related texts from unrelated ones', async () => {
    const [q, near, far] = await onnx.encode(['how do I bake sourdough bread', 'my sourdough starter recipe and baking tips', 'quarterly earnings beat analyst expectations'])
    expect(dot(q, near)).toBeGreaterThan(dot(q, far) + 0.2)
  })

  it('is the engine loadSentenceEncoder gives on this platform', async () => {
    const [v] = await (await loadSentenceEncoder()).encode([TEXTS[0]])
    const [w] = await onnx.encode([TEXTS[0]])
    expect(v).toEqual(w)
  })
})

describe('the TF.js to ONNX translation', () => {
  const graph = (op: string): TfjsModelJson => ({
    modelTopology: { node: [{ name: 'x', op: 'Placeholder', attr: { dtype: { type: 1 } } }, { name: 'y', op, input: ['x'], attr: { T: { type: 1 } } }] },
    weightsManifest: [],
  })

  it('runs a small translated graph on ONNX Runtime', async () => {
    const ort = onnxRuntime()!
    const session = await ort.InferenceSession.create(encodeModel(tfjsToOnnx(graph('Rsqrt'), [])))
    const out = await session.run({ x: new ort.Tensor('float32', Float32Array.from([4, 16]), [2]) })
    expect(Array.from(out.y.data as Float32Array)).toEqual([0.5, 0.25])
  })

  it('names an op it cannot translate', () => {
    expect(() => tfjsToOnnx(graph('FFT'), [])).toThrow('the TF op FFT (y) has no ONNX translation')
  })
})
