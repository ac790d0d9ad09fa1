import { describe, expect, it } from 'vitest'
import { createTagVocabulary, editDistance, extractEntities, normalizeTag, suggestTags } from '../../../src-main/ai/local/index.ts'
import { hasFixtures, readFixturePosts, readFlatExcerpt } from './fixture-posts.ts'

describe('tag vocabulary', () => {
  it('merges case, plurals, synonyms, gazetteer aliases and typos into one canonical tag', () => {
    const vocab = createTagVocabulary(['JavaScript', 'Machine Learning', 'databases'])
    const cases: Array<[string, string]> = [
      ['js', 'javascript'],
      ['#MachineLearning', 'machine learning'],
      ['ml', 'machine learning'],
      ['k8s', 'kubernetes'],
      ['Database', 'databases'],
      ['postgres', 'postgresql'],
      ['Golang', 'go'],
      ['LLMs', 'llm'],
      ['javascrpt', 'javascript'],
      ['machine-learning', 'machine learning'],
      ['iOS', 'ios'],
      ['#eBay', 'ebay'],
      ['#BuildInPublic', 'build in public'],
    ]
    for (const [raw, canonical] of cases) expect(normalizeTag(raw, vocab)).toBe(canonical)
    expect(vocab.tags()).toEqual(['javascript', 'machine learning', 'databases', 'kubernetes', 'postgresql', 'go', 'llm', 'ios', 'ebay', 'build in public'])
  })

  it('keeps names that differ by a letter or number apart', () => {
    const vocab = createTagVocabulary(['Model S'])
    expect(vocab.normalize('Model Y')).toBe('model y')
    expect(vocab.normalize('GPT-5')).not.toBe('model s')
    expect(vocab.lookup('brand new thing')).toBeNull()
  })

  it('computes edit distance', () => {
    expect(editDistance('kitten', 'sitten')).toBe(1)
    expect(editDistance('flaw', 'lawn')).toBe(2)
    expect(editDistance('kitten', 'sitting', 2)).toBe(3)
    expect(editDistance('abc', 'abc')).toBe(0)
  })
})

describe.skipIf(!hasFixtures)('suggestTags on real posts', () => {
  const posts = hasFixtures ? [...readFixturePosts(), ...readFlatExcerpt()] : []
  const tagsOf = (id: string) => {
    const p = posts.find((x) => x.postId === id)!
    return suggestTags(p, extractEntities(p), { vocab: createTagVocabulary() })
  }
  it('tags posts with their named things and topics', () => {
    expect(tagsOf('2074968589820739994')).toEqual(expect.arrayContaining(['grok', 'gpt', 'ai']))
    expect(tagsOf('2074974895750951259')).toEqual(expect.arrayContaining(['tesla', 'model s', 'electric vehicles']))
    expect(tagsOf('1564644124858486785')).toEqual(expect.arrayContaining(['chirp dev challenge', 'chirp']))
  })
  it('gives 3 to 8 tags to posts with something to say', () => {
    const vocab = createTagVocabulary()
    // English posts: the resources are English; a Japanese post gets its hashtags only.
    for (const p of posts.filter((x) => (x.text.match(/[a-z]/gi) ?? []).length > 120)) {
      const tags = suggestTags(p, extractEntities(p), { vocab })
      expect(tags.length, p.text).toBeGreaterThanOrEqual(3)
      expect(tags.length).toBeLessThanOrEqual(8)
      expect(new Set(tags).size).toBe(tags.length)
    }
  })
})
