import { afterAll, describe, expect, it } from 'vitest'
import { createEncoderEmbedder, type Embedder } from '../../src-main/search/embedder.ts'
import { createSemanticIndex } from '../../src-main/search/semantic.ts'
import { closeDatabase, openDatabase } from '../../src-main/store/index.ts'

describe('query vectors', () => {
  const db = openDatabase({ file: ':memory:' })
  const encoder = createEncoderEmbedder()
  const asked: string[][] = []
  // The real encoder (the process's one model), with each model call noted.
  const counted: Embedder = { ...encoder, embed: (texts, signal) => (asked.push(texts), encoder.embed(texts, signal)) }
  afterAll(() => closeDatabase(db))

  it('asks the model once per question: a repeated question reuses its vector, a new one is encoded', async () => {
    const index = createSemanticIndex({ db, embedder: counted })
    const first = await index.embedQuery('how to make my database faster')
    const again = await index.embedQuery('how to make my database faster')
    const other = await index.embedQuery('sourdough starter tips')
    expect(asked).toEqual([['how to make my database faster'], ['sourdough starter tips']])
    expect(again).toBe(first)
    expect(first.length).toBe(512)
    expect(first.reduce((s, x, i) => s + x * other[i], 0)).toBeLessThan(0.5)
  })
})
