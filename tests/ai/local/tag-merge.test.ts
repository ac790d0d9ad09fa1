import { existsSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { createTagMerger, createTagVocabulary, loadSentenceEncoder, shouldMerge, tagEvidence } from '../../../src-main/ai/local/index.ts'
import { createEngine } from '../../../src-main/ai/providers/local-engine.ts'
import { dot } from '../../../src-main/ai/local/word-vectors.ts'
import { toEngine } from '../../../bench/local-understanding.ts'
import { ARCHIVE_TWEETS, readArchivePosts } from './fixture-posts.ts'
import { describeIf } from '../../support/skip.ts'
import { NEEDS_FIXTURES } from '../../support/fixtures.ts'

const encode = async (t: string[]) => (await loadSentenceEncoder()).encode(t)
const cos = async (a: string, b: string) => {
  const [x, y] = await encode([a, b])
  return dot(x, y)
}

describe('which tags are one tag (spelling evidence and the sentence encoder together)', () => {
  it.each([
    ['nyc', 'new york city'], ['gpu', 'graphics processing unit'], ['vscode', 'vs code'], ['pics', 'pictures'], ['maths', 'mathematics'], ['saas', 'software as a service'],
  ])('%s and %s are one', async (a, b) => {
    expect(tagEvidence(a, b)).not.toBeNull()
    expect(shouldMerge(a, b, await cos(a, b))).toBe(true)
  })

  it.each([
    ['java', 'javascript'], ['react', 'preact'], ['rust', 'trust'], ['iran', 'iraq'], ['git', 'github'], ['mongo', 'mongolia'], ['art', 'artist'],
    ['ml', 'major league'], ['twitter', 'twitterspaces'], ['水星の魔女', '水星の魔女最終回'],
  ])('%s and %s stay apart', async (a, b) => {
    expect(shouldMerge(a, b, await cos(a, b))).toBe(false)
  })

  it('reads a new tag as the library\'s near-synonym, whichever came first, and remembers it', async () => {
    const vocab = createTagVocabulary(['New York City'])
    const merger = createTagMerger(vocab, encode)
    expect(await merger.resolve(['NYC', 'pizza'])).toEqual(['new york city', 'pizza'])
    expect(vocab.normalize('nyc')).toBe('new york city')
    expect(await merger.resolve(['java'])).toEqual(['java'])
    expect(await merger.resolve(['javascript'])).toEqual(['javascript'])
  })
})

describeIf(existsSync(ARCHIVE_TWEETS), NEEDS_FIXTURES)('merged tags on real posts (the X archive), through the pipeline engine', () => {
  let posts: Awaited<ReturnType<typeof readArchivePosts>> = []
  beforeAll(async () => {
    posts = await readArchivePosts()
  })
  const tagsOf = async (existingTags: string[], needle: string) => {
    const post = posts.find((p) => p.text.includes(needle))
    expect(post, needle).toBeDefined()
    const engine = createEngine({ existingTags, categories: [], examples: [] })
    const [r] = await engine.semantic([{ post: toEngine(post!, 1) }])
    return r.tags
  }

  it('a post saying "GPU" is tagged with the library\'s "graphics processing unit"', async () => {
    expect(await tagsOf([], 'Eso es una GPU pintando un mapa')).toContain('gpu')
    const tags = await tagsOf(['graphics processing unit'], 'Eso es una GPU pintando un mapa')
    expect(tags).toContain('graphics processing unit')
    expect(tags).not.toContain('gpu')
  }, 60_000)

  it('"Robots vs Humans" ends with one tag for robots and robotics', async () => {
    const tags = await tagsOf([], 'Robots vs Humans')
    expect(tags.filter((t) => t.startsWith('robot'))).toHaveLength(1)
  }, 60_000)
})
