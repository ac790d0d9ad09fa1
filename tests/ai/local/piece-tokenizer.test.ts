import { beforeAll, describe, expect, it } from 'vitest'
import { encodePieces, type PackageTokenizer } from '../../../src-main/ai/local/piece-tokenizer.ts'
import { encoderInput } from '../../../src-main/ai/local/sentence-encoder.ts'
import { loadTokenizer } from '../../../src-main/ai/local/use-lite-onnx.ts'
import { MANY_QUESTIONS } from '../../../bench/search-questions.ts'
import { NEEDS_FIXTURES } from '../../support/fixtures.ts'
import { itIf } from '../../support/skip.ts'
import { hasFixtures, readFixturePosts } from './fixture-posts.ts'

/** Texts the package's own tokenizer meets: unknown symbols, emoji, other scripts, runs of spaces, nothing at all. */
const ODD = [
  '', ' ', '   ', 'a', '.', 'ok', '  two  spaces  ', 'naïve café ｆｕｌｌｗｉｄｔｈ', '東京の天気は晴れ', 'Привет, мир', 'مرحبا بالعالم',
  '🚀🚀🚀', 'emoji 🧵 thread 👇 below', 'C++ vs C# vs F#', '\u0000\u0001 control', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math', 'tab\tand\nnewline', 'ÅÅ Å',
  '\uE000', 'x'.repeat(400), 'the '.repeat(100),
]

/** Random strings over a mix of vocabulary letters and symbols no piece holds. */
function randomTexts(count: number): string[] {
  const alphabet = [...'abcdefghijklmnopqrstuvwxyz    ,.!?0123456789éüß漢字🙂☃\u2581\u00a0']
  let seed = 7
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 120) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''))
}

describe("the sentence model's tokenizer", () => {
  let tokenizer: PackageTokenizer
  beforeAll(async () => {
    tokenizer = await loadTokenizer()
  })
  const same = (texts: readonly string[]) => {
    for (const text of texts) expect(encodePieces(tokenizer, text), text).toEqual(tokenizer.encode(text))
  }

  it("gives the package's ids for search's questions and texts it finds odd", () => {
    same(MANY_QUESTIONS)
    same(ODD)
    same(randomTexts(500))
  })

  itIf(hasFixtures, NEEDS_FIXTURES)("gives the package's ids for real posts, as the encoder reads them", () => {
    const posts = readFixturePosts()
    expect(posts.length).toBeGreaterThan(50)
    same(posts.map((p) => encoderInput(p.text)))
    same(posts.map((p) => p.text))
  })
})
